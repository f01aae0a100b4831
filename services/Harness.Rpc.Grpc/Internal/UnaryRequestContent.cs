using System.Buffers;
using System.Buffers.Binary;
using System.Net;
using System.Net.Http.Headers;
using Google.Protobuf;

namespace Harness.Rpc.Grpc.Internal;

/// <summary>The request body of a unary call: one length-prefixed, uncompressed message.</summary>
/// <remarks>
/// The message is serialized while the handler sends it, into a pooled buffer that is returned when that write
/// ends. A buffer owned by the content instead could go back to the pool while a write is still running,
/// because a server may answer (and the call finish) before it has read the request.
/// </remarks>
internal sealed class UnaryRequestContent : HttpContent
{
    private static readonly MediaTypeHeaderValue GrpcContentType = new(GrpcProtocol.ContentType);

    private readonly IMessage _message;
    private readonly int _messageSize;

    public UnaryRequestContent(IMessage message)
    {
        _message = message;
        _messageSize = message.CalculateSize();
        Headers.ContentType = GrpcContentType;
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        var length = GrpcProtocol.FrameHeaderSize + _messageSize;
        var buffer = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            buffer[0] = 0;
            BinaryPrimitives.WriteUInt32BigEndian(buffer.AsSpan(1), (uint)_messageSize);
            _message.WriteTo(buffer.AsSpan(GrpcProtocol.FrameHeaderSize, _messageSize));
            await stream.WriteAsync(buffer.AsMemory(0, length), cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    protected override bool TryComputeLength(out long length)
    {
        length = GrpcProtocol.FrameHeaderSize + _messageSize;
        return true;
    }
}
