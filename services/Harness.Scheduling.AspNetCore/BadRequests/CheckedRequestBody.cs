using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace Harness.Scheduling.AspNetCore.BadRequests;

/// <summary>
/// The body reader Grpc.AspNetCore reads a request through, in front of Kestrel's. Two things Grpc.AspNetCore
/// answers like a handler's failure, with <c>UNKNOWN</c> and an Error log line with a stack trace, get a status here:
/// <list type="bullet">
/// <item>a message header it cannot read (its InvalidDataException or IOException): a compressed flag other than 0 or 1
/// is <c>INTERNAL</c>; a length of 2 GiB or more is <c>RESOURCE_EXHAUSTED</c>, as any message above the size limit;</item>
/// <item>a body Kestrel stops delivering because the client reset the stream or the connection, or sent too slowly
/// (an IOException, which Grpc.AspNetCore logs as an Error unless the request's token is already cancelled, as Kestrel
/// does a moment later on another thread): <c>CANCELLED</c>; a body above Kestrel's MaxRequestBodySize:
/// <c>RESOURCE_EXHAUSTED</c>.</item>
/// </list>
/// </summary>
/// <remarks>
/// The header check relies on one property of Grpc.AspNetCore's readers (PipeExtensions): they consume whole messages
/// only, so every buffer they are handed starts at a message's header. One object of a few dozen bytes per gRPC request.
/// </remarks>
internal sealed class CheckedRequestBody(PipeReader inner) : PipeReader, IRequestBodyPipeFeature
{
    private const int HeaderSize = 5;

    private static readonly Status BadFlag = new(StatusCode.Internal, "A gRPC message's compressed flag must be 0 or 1.");

    // Grpc.AspNetCore's own words for a message above the limit; no limit can be 2 GiB or more.
    private static readonly Status TooLarge = new(StatusCode.ResourceExhausted, "Received message exceeds the maximum configured message size.");

    PipeReader IRequestBodyPipeFeature.Reader => this;

    /// <summary>Whether <paramref name="request"/> is gRPC over HTTP/2: <c>application/grpc</c>, alone or with <c>+</c> or <c>;</c>, not gRPC-Web.</summary>
    public static bool IsGrpc(HttpRequest request)
    {
        string? type = request.ContentType;
        const string Grpc = "application/grpc";
        return HttpMethods.IsPost(request.Method)
            && type is not null
            && type.StartsWith(Grpc, StringComparison.OrdinalIgnoreCase)
            && (type.Length == Grpc.Length || type[Grpc.Length] is '+' or ';');
    }

    public override ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default)
    {
        ValueTask<ReadResult> read;
        try
        {
            read = inner.ReadAsync(cancellationToken);
        }
        catch (IOException e)
        {
            throw Unreadable(e);
        }

        return read.IsCompletedSuccessfully ? new ValueTask<ReadResult>(Checked(read.Result)) : CheckedAsync(read);
    }

    public override bool TryRead(out ReadResult result)
    {
        try
        {
            if (!inner.TryRead(out result))
            {
                return false;
            }
        }
        catch (IOException e)
        {
            throw Unreadable(e);
        }

        result = Checked(result);
        return true;
    }

    public override void AdvanceTo(SequencePosition consumed) => AdvanceTo(consumed, consumed);

    public override void AdvanceTo(SequencePosition consumed, SequencePosition examined)
    {
        try
        {
            inner.AdvanceTo(consumed, examined);
        }
        catch (IOException e)
        {
            throw Unreadable(e);
        }
    }

    public override void CancelPendingRead() => inner.CancelPendingRead();

    public override void Complete(Exception? exception = null) => inner.Complete(exception);

    public override ValueTask CompleteAsync(Exception? exception = null) => inner.CompleteAsync(exception);

    // Kestrel's message says which (the client reset the stream, data arrived too slowly) and holds nothing of the client's.
    private static RpcException Unreadable(IOException e) => new(e is BadHttpRequestException { StatusCode: StatusCodes.Status413PayloadTooLarge }
        ? new Status(StatusCode.ResourceExhausted, $"The request's body could not be read: {e.Message}", e)
        : new Status(StatusCode.Cancelled, $"The request's body could not be read: {e.Message}", e));

    private async ValueTask<ReadResult> CheckedAsync(ValueTask<ReadResult> read)
    {
        ReadResult result;
        try
        {
            result = await read.ConfigureAwait(false);
        }
        catch (IOException e)
        {
            throw Unreadable(e);
        }

        return Checked(result);
    }

    private ReadResult Checked(ReadResult result)
    {
        ReadOnlySequence<byte> buffer = result.Buffer;
        if (result.IsCanceled || buffer.IsEmpty)
        {
            return result;
        }

        Span<byte> header = stackalloc byte[HeaderSize];
        int length = (int)Math.Min(buffer.Length, HeaderSize);
        buffer.Slice(0, length).CopyTo(header);
        Status? failure = header[0] > 1 ? BadFlag
            : length == HeaderSize && BinaryPrimitives.ReadUInt32BigEndian(header[1..]) > int.MaxValue ? TooLarge
            : null;
        if (failure is { } status)
        {
            // The reader's caller never sees this buffer, so it is released here; nothing reads the body after this.
            inner.AdvanceTo(buffer.Start, buffer.End);
            throw new RpcException(status);
        }

        return result;
    }
}
