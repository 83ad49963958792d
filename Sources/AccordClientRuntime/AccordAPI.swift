import Foundation

/// The API's endpoints, grouped by domain: `API.signal.publish(body)`.
public nonisolated enum API {}
