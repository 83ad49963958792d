// The generated client (Tests/TongbanAPI) as a command, for the browser tests of the web
// console (Tests/Browser): each action signs in as an app would and makes one call,
// then prints what the app saw as one JSON line.
//
// usage: console-client BASE_URL ACTION
//   publish        publish a signal
//   long-publish   publish a signal of 600 characters (the contract allows 500): a violation
//   me             read the signed-in user
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TongbanAPI

let arguments = CommandLine.arguments
guard arguments.count == 3, let baseURL = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: console-client BASE_URL publish|long-publish|me\n".utf8))
    exit(2)
}

/// What the app saw, as the browser tests read it.
func report(_ members: [String: String]) {
    let line = (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])) ?? Data("{}".utf8)
    print(String(decoding: line, as: UTF8.self))
}

let api = APIClient(configuration: ClientConfiguration(serverURL: baseURL, appKey: "dev_app_key", appSecret: "dev_app_secret",
                                                       deviceID: "console-client", os: "ios", appVersion: "1.2.0", timeout: 10),
                    storage: InMemoryTokenStorage())
let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                  deviceInfo: DeviceInfo(deviceID: "console-client", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))
do {
    _ = try await api.send(API.auth.loginPhone(login))
    switch arguments[2] {
    case "publish":
        let signal = try await api.send(API.signal.publish(SignalPublishRequest(content: "from the console test", tags: [], isFlash: false)))
        report(["result": "ok", "id": signal.id])
    case "long-publish":
        _ = try await api.send(API.signal.publish(SignalPublishRequest(content: String(repeating: "长", count: 600), tags: [], isFlash: false)))
        report(["result": "ok"])
    case "me":
        let user = try await api.send(API.auth.userMe())
        report(["result": "ok", "uid": String(user.uid)])
    default:
        FileHandle.standardError.write(Data("unknown action '\(arguments[2])'\n".utf8))
        exit(2)
    }
} catch {
    switch error {
    case .business(let code, let message, _): report(["result": "business", "code": String(code.rawValue), "message": message])
    case .banned: report(["result": "banned", "code": "1008"])
    case .sessionEnded(let code): report(["result": "session-ended", "code": String(code.rawValue)])
    default: report(["result": "error", "description": error.description])
    }
}
