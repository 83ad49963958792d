internal import CMicroHTTPD
import Foundation

// libmicrohttpd's callbacks: each finds the Swift object behind its context pointer
// and hands over to it.

let requestTargetLogger: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
    context, target, _ in
    guard let context else { return nil }
    return Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().begin(target: target.map { String(cString: $0) } ?? "/")
}

let accessHandler: MHD_AccessHandlerCallback = { context, connection, _, method, _, upload, uploadSize, slot in
    guard let context, let connection, let method, let uploadSize, let slot else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.handle(connection: connection, method: String(cString: method), upload: upload, uploadSize: uploadSize, slot: slot)
}

/// Takes connections until the server stops. `MHD_quiesce_daemon` would close the listening
/// socket instead, but in libmicrohttpd 0.9.75 it races the epoll workers: both take the
/// socket out of a worker's epoll set, and quiesce aborts the process when it finds it gone.
let acceptPolicy: MHD_AcceptPolicyCallback = { context, _, _ in
    guard let context else { return .NO }
    return Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().accepting.load(ordering: .acquiring) ? .YES : .NO
}

let completedHandler: MHD_RequestCompletedCallback = { context, connection, slot, _ in
    guard let context else { return }
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().completed(connection, slot)
}

let connectionNotifier: MHD_NotifyConnectionCallback = { context, connection, socketContext, event in
    guard let context, let connection, let socketContext else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    if event == .CONNECTION_NOTIFY_STARTED {
        socketContext.pointee = server.connections.opened(descriptor: accord_connection_fd(connection), at: ContinuousClock.now)
    } else if let clock = socketContext.pointee {
        server.connections.closed(clock)
        socketContext.pointee = nil
    }
}

let chunkReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return accord_end_of_stream() }
    return Unmanaged<ChunkStream>.fromOpaque(context).takeUnretainedValue().read(into: buffer, max: max)
}

let chunkStreamFree: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<ChunkStream>.fromOpaque(context).release()
}

let pipeReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return accord_end_of_stream() }
    return Unmanaged<PipeReader>.fromOpaque(context).takeUnretainedValue().read(into: buffer, max: max)
}

let pipeReaderFree: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<PipeReader>.fromOpaque(context).takeRetainedValue().pipe.close()
}

/// MHD's own messages (connection limits reached, malformed requests), rate-limited.
@_cdecl("accord_mhd_log_sink")
func mhdLogSink(_ context: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {
    guard let context, let message else { return }
    let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().libraryNotices.write("accord serve: libmicrohttpd: \(text)")
}
