import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A server channel that answers a request it cannot parse with `400 Bad Request` before
/// closing the connection. Hummingbird answers parse errors itself once a request has
/// reached it, but with the WebSocket upgrade in front (hummingbird-websocket turns NIO's
/// error handling off) garbage that never becomes a request head fails the upgrade
/// negotiation, and the client got nothing but a closed socket.
struct AnswersMalformedRequests<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(BadRequestHandler(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Sits right after NIO's HTTP decoder until the first request head passes: a parse error
/// before it gets a 400 (through NIO's response encoder, which is just before it); after
/// it the handler is gone and the upgrade handler or Hummingbird owns the connection.
final class BadRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            let headers = HTTPHeaders([("Connection", "close"), ("Content-Length", "0")])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
                          promise: nil)
            // Then close: the decoder takes nothing more from this connection.
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
        }
        context.fireErrorCaught(error)
    }
}
