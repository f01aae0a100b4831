using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;

namespace Harness.Rpc.Grpc.Internal;

/// <summary>Reads the one length-prefixed request message of a unary call from the request body.</summary>
internal static class ServerMessageReader
{
    /// <summary>
    /// Returns the request once the client has ended its stream. The statuses and messages for bad input are
    /// grpc-dotnet's (Grpc.AspNetCore.Server's PipeExtensions), except a payload that does not parse, which
    /// is INTERNAL as doc/statuscodes.md asks ("Error parsing request proto") rather than grpc-dotnet's UNKNOWN.
    /// </summary>
    public static async ValueTask<TRequest> ReadSingleMessageAsync<TRequest>(HttpContext httpContext, MessageParser<TRequest> parser, int maxReceiveMessageSize)
        where TRequest : IMessage<TRequest>
    {
        var input = httpContext.Request.BodyReader;
        TRequest? request = default;
        var haveRequest = false;

        // Each pass either consumes bytes, waits for more, or ends with the stream; Kestrel's body ends with the
        // client's END_STREAM or a reset, so the loop is bounded by what the client sends.
        while (true)
        {
            var result = await input.ReadAsync();
            var buffer = result.Buffer;
            var consumed = buffer.Start;
            try
            {
                if (result.IsCanceled)
                {
                    throw new RpcException(GrpcStatusCode.Internal, "Incoming message cancelled.");
                }

                if (!buffer.IsEmpty)
                {
                    if (haveRequest)
                    {
                        throw new RpcException(GrpcStatusCode.Internal, "Additional data after the message received.");
                    }

                    if (TryReadMessage(buffer, httpContext, maxReceiveMessageSize, out var payload))
                    {
                        request = Parse(parser, payload);
                        haveRequest = true;
                        consumed = payload.End;
                        buffer = buffer.Slice(payload.End);
                        if (!buffer.IsEmpty)
                        {
                            throw new RpcException(GrpcStatusCode.Internal, "Additional data after the message received.");
                        }
                    }
                }

                if (result.IsCompleted)
                {
                    if (haveRequest)
                    {
                        return request!;
                    }

                    throw new RpcException(GrpcStatusCode.Internal, "Incomplete message.");
                }
            }
            finally
            {
                // Everything is examined, so until a whole frame has arrived the next read waits for more data.
                input.AdvanceTo(consumed, buffer.End);
            }
        }
    }

    private static TRequest Parse<TRequest>(MessageParser<TRequest> parser, in ReadOnlySequence<byte> payload)
        where TRequest : IMessage<TRequest>
    {
        try
        {
            return parser.ParseFrom(payload);
        }
        catch (InvalidProtocolBufferException ex)
        {
            throw new RpcException(GrpcStatusCode.Internal, "Failed to deserialize request message.", ex);
        }
    }

    private static bool TryReadMessage(in ReadOnlySequence<byte> buffer, HttpContext httpContext, int maxReceiveMessageSize, out ReadOnlySequence<byte> payload)
    {
        payload = default;
        if (buffer.Length < GrpcProtocol.FrameHeaderSize)
        {
            return false;
        }

        Span<byte> header = stackalloc byte[GrpcProtocol.FrameHeaderSize];
        buffer.Slice(0, GrpcProtocol.FrameHeaderSize).CopyTo(header);

        var compressed = header[0] switch
        {
            0 => false,
            1 => true,
            _ => throw new RpcException(GrpcStatusCode.Internal, "Unexpected compressed flag value in message header."),
        };

        // Checked on the header alone, so an oversized message is refused before it is buffered.
        var length = BinaryPrimitives.ReadUInt32BigEndian(header[1..]);
        if (length > (uint)maxReceiveMessageSize)
        {
            throw new RpcException(GrpcStatusCode.ResourceExhausted, "Received message exceeds the maximum configured message size.");
        }

        if (compressed)
        {
            ThrowUnsupportedCompression(httpContext);
        }

        if (buffer.Length - GrpcProtocol.FrameHeaderSize < length)
        {
            return false;
        }

        payload = buffer.Slice(GrpcProtocol.FrameHeaderSize, length);
        return true;
    }

    private static void ThrowUnsupportedCompression(HttpContext httpContext)
    {
        string? encoding = httpContext.Request.Headers[GrpcProtocol.EncodingHeader];
        if (string.IsNullOrEmpty(encoding))
        {
            throw new RpcException(GrpcStatusCode.Internal, "Request did not include grpc-encoding value with compressed message.");
        }

        if (string.Equals(encoding, GrpcProtocol.IdentityEncoding, StringComparison.Ordinal))
        {
            throw new RpcException(GrpcStatusCode.Internal, "Request sent 'identity' grpc-encoding value with compressed message.");
        }

        // doc/compression.md: UNIMPLEMENTED, naming the supported encodings in the status and in grpc-accept-encoding.
        var response = httpContext.Response;
        if (!response.HasStarted)
        {
            response.Headers[GrpcProtocol.AcceptEncodingHeader] = GrpcProtocol.IdentityEncoding;
        }

        throw new RpcException(GrpcStatusCode.Unimplemented, $"Unsupported grpc-encoding value '{encoding}'. Supported encodings: {GrpcProtocol.IdentityEncoding}");
    }
}
