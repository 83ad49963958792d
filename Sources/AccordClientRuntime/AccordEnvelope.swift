import Foundation

/// The envelope, with the member names the contract gives it.
nonisolated struct Envelope<Service: AccordContractService, Payload: Decodable>: Decodable {
    var code: Int
    var message: String
    var data: Payload?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AccordCodingKey.self)
        code = try container.decode(Int.self, forKey: AccordCodingKey(stringValue: Service.envelopeCode))
        message = try container.decodeIfPresent(String.self, forKey: AccordCodingKey(stringValue: Service.envelopeMessage)) ?? ""
        data = try container.decodeIfPresent(Payload.self, forKey: AccordCodingKey(stringValue: Service.envelopeData))
    }
}

nonisolated extension AccordContractService {
    /// The payload of a refusal's body read as `type`: the envelope's `data`, or a
    /// plain API's whole error body.
    static func payload<Payload: Decodable>(_ type: Payload.Type, in body: Data) -> Payload? {
        if usesEnvelope { return try? JSONDecoder().decode(Envelope<Self, Payload>.self, from: body).data }
        return try? JSONDecoder().decode(Payload.self, from: body)
    }
}
