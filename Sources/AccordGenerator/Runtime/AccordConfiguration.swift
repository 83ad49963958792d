import Foundation

/// Who the client is, and where it calls.
public struct ClientConfiguration: Sendable {
    /// The server, such as `https://api.example.com` (the base path is added).
    public var serverURL: URL
    public var appKey: String
    public var appSecret: String
    public var deviceID: String
    public var os: String
    public var appVersion: String
    public var language: String?
    public var timeout: TimeInterval

    public init(serverURL: URL, appKey: String, appSecret: String, deviceID: String, os: String = "ios",
                appVersion: String, language: String? = nil, timeout: TimeInterval = 30) {
        self.serverURL = serverURL
        self.appKey = appKey
        self.appSecret = appSecret
        self.deviceID = deviceID
        self.os = os
        self.appVersion = appVersion
        self.language = language
        self.timeout = timeout
    }
}
