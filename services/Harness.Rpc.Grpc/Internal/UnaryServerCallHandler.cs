using System.Buffers.Binary;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Harness.Rpc.Grpc.Internal;

/// <summary>Serves one unary method: validates the request, runs the interceptor pipeline and writes the result.</summary>
internal sealed class UnaryServerCallHandler<TRequest, TResponse>
    where TRequest : class, IMessage<TRequest>, new()
    where TResponse : class, IMessage<TResponse>, new()
{
    // Below this the frame is written into one span; above it the message is streamed into the pipe so a large
    // response does not need one contiguous buffer.
    private const int SingleSpanMessageLimit = 4096 - GrpcProtocol.FrameHeaderSize;

    private static readonly MessageParser<TRequest> Parser = new(() => new TRequest());

    private readonly string _method;
    private readonly UnaryServerMethod<TRequest, TResponse> _invoker;
    private readonly int _maxReceiveMessageSize;
    private readonly int? _maxSendMessageSize;
    private readonly ILogger _logger;

    public UnaryServerCallHandler(string method, UnaryServerMethod<TRequest, TResponse> invoker, GrpcServerOptions options, ILogger logger)
    {
        _method = method;
        _invoker = invoker;
        _maxReceiveMessageSize = options.MaxReceiveMessageSize;
        _maxSendMessageSize = options.MaxSendMessageSize;
        _logger = logger;
    }

    public Task HandleCallAsync(HttpContext httpContext)
    {
        var request = httpContext.Request;
        if (!GrpcProtocol.IsGrpcContentType(request.ContentType))
        {
            GrpcServerLog.UnsupportedContentType(_logger, request.ContentType);
            var error = request.ContentType is null
                ? "Content-Type is missing from the request."
                : $"Content-Type '{request.ContentType}' is not supported.";
            WriteHttpError(httpContext.Response, StatusCodes.Status415UnsupportedMediaType, error);
            return Task.CompletedTask;
        }

        if (!HttpProtocol.IsHttp2(request.Protocol) && !HttpProtocol.IsHttp3(request.Protocol))
        {
            GrpcServerLog.UnsupportedProtocol(_logger, request.Protocol);
            WriteHttpError(httpContext.Response, StatusCodes.Status426UpgradeRequired, $"Request protocol '{request.Protocol}' is not supported.");
            httpContext.Response.Headers.Upgrade = "HTTP/2";
            return Task.CompletedTask;
        }

        httpContext.Response.ContentType = GrpcProtocol.ContentType;
        return HandleCallCoreAsync(httpContext);
    }

    private static void WriteHttpError(HttpResponse response, int httpStatusCode, string detail)
    {
        // The HTTP status keeps plain HTTP clients from reading the error as success; gRPC clients still get a status.
        response.StatusCode = httpStatusCode;
        GrpcProtocol.SetStatus(response, GrpcStatusCode.Internal, detail);
    }

    private async Task HandleCallCoreAsync(HttpContext httpContext)
    {
        var deadline = CreateDeadline(httpContext);
        var context = deadline is null
            ? new ServerCallContext(_method, DateTime.MaxValue, httpContext.RequestAborted, httpContext)
            : new ServerCallContext(_method, deadline.Deadline, deadline.CancellationToken, httpContext);

        try
        {
            TResponse response;
            int size;
            try
            {
                var request = await ServerMessageReader.ReadSingleMessageAsync(httpContext, Parser, _maxReceiveMessageSize);
                response = await _invoker(request, context)
                    ?? throw new RpcException(GrpcStatusCode.Cancelled, "No message returned from method.");

                size = response.CalculateSize();
                if (size > _maxSendMessageSize)
                {
                    throw new RpcException(GrpcStatusCode.ResourceExhausted, "Sending message exceeds the maximum configured message size.");
                }
            }
            catch (Exception ex)
            {
                if (deadline is null || deadline.TryCompleteCall())
                {
                    WriteError(httpContext, ex);
                }

                return;
            }

            if (deadline is null || deadline.TryCompleteCall())
            {
                await WriteResponseAsync(httpContext.Response, response, size);
            }
        }
        finally
        {
            if (deadline is not null)
            {
                await deadline.DisposeAsync();
            }
        }
    }

    private ServerCallDeadline? CreateDeadline(HttpContext httpContext)
    {
        if (!httpContext.Request.Headers.TryGetValue(GrpcProtocol.TimeoutHeader, out var values))
        {
            return null;
        }

        // PROTOCOL-HTTP2.md allows one timeout; anything unparsable is ignored, as grpc-dotnet does.
        if (values.Count != 1 || !GrpcProtocol.TryParseTimeout(values[0], out var timeout) || timeout <= TimeSpan.Zero)
        {
            GrpcServerLog.InvalidTimeout(_logger, values.ToString());
            return null;
        }

        return new ServerCallDeadline(httpContext, timeout, _logger);
    }

    private static async ValueTask WriteResponseAsync(HttpResponse httpResponse, TResponse message, int size)
    {
        // Starting the response first is what grpc-dotnet does before taking buffers from the body writer.
        if (!httpResponse.HasStarted)
        {
            await httpResponse.StartAsync();
        }

        var writer = httpResponse.BodyWriter;
        if (size <= SingleSpanMessageLimit)
        {
            var frame = writer.GetSpan(GrpcProtocol.FrameHeaderSize + size);
            WriteFrameHeader(frame, size);
            message.WriteTo(frame.Slice(GrpcProtocol.FrameHeaderSize, size));
            writer.Advance(GrpcProtocol.FrameHeaderSize + size);
        }
        else
        {
            WriteFrameHeader(writer.GetSpan(GrpcProtocol.FrameHeaderSize), size);
            writer.Advance(GrpcProtocol.FrameHeaderSize);
            message.WriteTo(writer);
        }

        // Kestrel flushes the body and sends these trailers when the request delegate returns.
        httpResponse.AppendTrailer(GrpcProtocol.StatusHeader, GrpcProtocol.ToHeaderValue(GrpcStatusCode.OK));
    }

    private static void WriteFrameHeader(Span<byte> destination, int size)
    {
        destination[0] = 0;
        BinaryPrimitives.WriteUInt32BigEndian(destination[1..], (uint)size);
    }

    private void WriteError(HttpContext httpContext, Exception exception)
    {
        GrpcStatusCode code;
        string detail;
        if (exception is RpcException rpcException)
        {
            code = rpcException.StatusCode;
            detail = rpcException.Detail;
            GrpcServerLog.RpcError(_logger, _method, code, detail);
        }
        else if (httpContext.RequestAborted.IsCancellationRequested)
        {
            // The client reset the stream or went away; the status is for the log, nobody receives it.
            code = GrpcStatusCode.Cancelled;
            detail = "Call canceled by the client.";
            GrpcServerLog.RpcError(_logger, _method, code, detail);
        }
        else
        {
            // The exception's text stays in the server log: it may hold details a client must not see.
            code = GrpcStatusCode.Unknown;
            detail = "Exception was thrown by handler.";
            GrpcServerLog.HandlerFailed(_logger, _method, exception);
        }

        GrpcProtocol.SetStatus(httpContext.Response, code, detail);
    }
}
