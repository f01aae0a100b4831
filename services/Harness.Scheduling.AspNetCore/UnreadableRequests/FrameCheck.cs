using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace Harness.Scheduling.AspNetCore.UnreadableRequests;

/// <summary>
/// Checks the 5-byte header of every gRPC message a request carries (the compressed flag, 0 or 1, and a length that
/// fits in an <see cref="int"/>) as Grpc.AspNetCore reads it, so that a header it cannot read is answered with a
/// status: <c>INTERNAL</c> for a flag of 2 to 255, <c>RESOURCE_EXHAUSTED</c> for a length of 2 GiB or more, as for any
/// message above the size limit. Without it Grpc.AspNetCore throws an InvalidDataException or an IOException there,
/// which it answers like a handler's failure: <c>UNKNOWN</c> and an Error log line with a stack trace.
/// </summary>
/// <remarks>
/// It wraps the request's body reader, since Grpc.AspNetCore reads the header before anything of the service runs. It
/// relies on one property of Grpc.AspNetCore's readers (PipeExtensions): they consume whole messages only, so every
/// buffer they are handed starts at a message's header. One object of about 40 bytes per gRPC request.
/// </remarks>
internal sealed class FrameCheckingBodyReader(PipeReader inner) : PipeReader, IRequestBodyPipeFeature
{
    private const int HeaderSize = 5;

    private static readonly Status BadFlag = new(StatusCode.Internal, "A gRPC message's compressed flag must be 0 or 1.");

    // Grpc.AspNetCore's own status for a message above the limit; no limit can be 2 GiB or more.
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
        ValueTask<ReadResult> read = inner.ReadAsync(cancellationToken);
        return read.IsCompletedSuccessfully ? new ValueTask<ReadResult>(Checked(read.Result)) : CheckedAsync(read);
    }

    public override bool TryRead(out ReadResult result)
    {
        if (!inner.TryRead(out result))
        {
            return false;
        }

        result = Checked(result);
        return true;
    }

    public override void AdvanceTo(SequencePosition consumed) => inner.AdvanceTo(consumed);

    public override void AdvanceTo(SequencePosition consumed, SequencePosition examined) => inner.AdvanceTo(consumed, examined);

    public override void CancelPendingRead() => inner.CancelPendingRead();

    public override void Complete(Exception? exception = null) => inner.Complete(exception);

    public override ValueTask CompleteAsync(Exception? exception = null) => inner.CompleteAsync(exception);

    private async ValueTask<ReadResult> CheckedAsync(ValueTask<ReadResult> read) => Checked(await read.ConfigureAwait(false));

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

/// <summary>Puts <see cref="FrameCheckingBodyReader"/> in front of every gRPC request, first in the pipeline.</summary>
internal sealed class FrameCheckStartupFilter : IStartupFilter
{
    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        app.Use(static (context, nextMiddleware) =>
        {
            if (FrameCheckingBodyReader.IsGrpc(context.Request))
            {
                context.Features.Set<IRequestBodyPipeFeature>(new FrameCheckingBodyReader(context.Request.BodyReader));
            }

            return nextMiddleware(context);
        });
        next(app);
    };
}
