using System.Buffers.Binary;
using Google.Protobuf;
using Grpc.Core;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// One unary call on an HTTP/2 connection: its request (a pre-encoded header block and gRPC message), its send
/// window, and the response as the connection's reader loop delivers it. The reader is the only thread that touches
/// the response fields; completion is claimed once, by the reader, a cancellation or a failed connection. The reply is
/// one message of at most <paramref name="maxReceiveMessageSize"/> bytes: a larger length prefix fails the call before
/// anything is buffered, and a partial message's buffer grows with the bytes received, never past the prefix's length.
/// </summary>
internal abstract class Http2Stream(byte[] headerBlock, byte[] body, int maxReceiveMessageSize) : IHeaderSink
{
    private static readonly Status DeadlineExceeded = new(StatusCode.DeadlineExceeded, "Deadline Exceeded");
    private const int NoStatus = -1, BadStatus = -2;

    private int _done;
    private CancellationTokenRegistration _cancellation;
    private long _deadline; // Environment.TickCount64 when the call is due; 0: none

    // The response, read only on the connection's reader loop.
    private bool _headersDone;
    private int _httpStatus;
    private int _grpcStatus = NoStatus;
    private Status _badStatus;
    private string? _grpcMessage;
    private bool _grpcContentType;
    private string? _contentType;
    private byte[]? _partial;
    private int _partialLength;
    private int _messageLength; // the prefix's 5 bytes and the message, once the prefix is in _partial

    public byte[] HeaderBlock { get; } = headerBlock;

    public byte[] Body { get; } = body;

    /// <summary>0 until the writer opens the stream (under the connection's lock).</summary>
    public int Id { get; set; }

    /// <summary>How much of <see cref="Body"/> the writer has sent.</summary>
    public int BodySent { get; set; }

    /// <summary>The server's send window for this stream: the writer takes from it, the reader's WINDOW_UPDATEs add to it.</summary>
    public int SendWindow;

    /// <summary>DATA received on the stream (padding included), against the runner's stream window: the reader's alone.</summary>
    public int Received;

    public Http2Connection? Connection { get; set; }

    public bool IsDone => Volatile.Read(ref _done) != 0;

    /// <summary>True once the reply is parsed, so a later OK status completes the call.</summary>
    protected abstract bool HasReply { get; }

    public void WatchCancellation(CancellationToken cancellationToken)
    {
        if (cancellationToken.CanBeCanceled)
        {
            _cancellation = cancellationToken.UnsafeRegister(static s => ((Http2Stream)s!).Fail(GrpcStatuses.Cancelled, reset: true), this);
        }
    }

    /// <summary>
    /// Fails the call with DEADLINE_EXCEEDED (and resets its stream) if it is not done within <paramref name="timeout"/>,
    /// as Grpc.Net.Client's deadline does. Call it once the stream has its connection, so the failure releases its place.
    /// </summary>
    /// <remarks>Its connection looks for it (<see cref="Http2Connection.DeadlineSweep"/>): no timer per call.</remarks>
    public void WatchDeadline(TimeSpan timeout) =>
        Volatile.Write(ref _deadline, Environment.TickCount64 + Math.Max(1, (long)Math.Ceiling(timeout.TotalMilliseconds)));

    /// <summary>True when the call is not done and its deadline is at or before <paramref name="now"/> (<see cref="Environment.TickCount64"/>).</summary>
    public bool IsPastDeadline(long now) => Volatile.Read(ref _deadline) is var due && due != 0 && now >= due && !IsDone;

    /// <summary>Fails the call with DEADLINE_EXCEEDED and resets its stream, as Grpc.Net.Client's deadline does.</summary>
    public void ExpireDeadline() => Fail(DeadlineExceeded, reset: true);

    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (name.SequenceEqual(":status"u8))
        {
            _httpStatus = ParseInt(value);
        }
        else if (name.SequenceEqual("grpc-status"u8))
        {
            _grpcStatus = ParseInt(value);
            if (_grpcStatus == BadStatus)
            {
                _badStatus = GrpcStatuses.MalformedStatus(value);
            }
        }
        else if (name.SequenceEqual("grpc-message"u8))
        {
            _grpcMessage = GrpcStatuses.DecodeMessage(value);
        }
        else if (name.SequenceEqual("content-type"u8))
        {
            // application/grpc, application/grpc+proto, application/grpc; charset=...: as Grpc.Net.Client accepts.
            _grpcContentType = value.StartsWith("application/grpc"u8)
                && (value.Length == 16 || value[16] == (byte)'+' || value[16] == (byte)';');
            _contentType = _grpcContentType ? null : System.Text.Encoding.ASCII.GetString(value);
        }
    }

    /// <summary>A header block has been decoded into this stream (<see cref="OnHeader"/>): the response's headers, or its trailers.</summary>
    public void OnHeadersEnd(bool endStream)
    {
        if (_headersDone)
        {
            // Trailers: they end the stream and carry the call's status.
            Finish(endStream);
            return;
        }

        _headersDone = true;
        if (_grpcStatus != NoStatus)
        {
            // Trailers-only, or a status among the headers: it decides, as in Grpc.Net.Client, even without END_STREAM
            // (the stream is then reset, nothing more of it being wanted).
            Finish(endStream: true, reset: !endStream);
        }
        else if (_httpStatus != 200)
        {
            Fail(GrpcStatuses.ForHttpStatus(_httpStatus), reset: !endStream);
        }
        else if (!_grpcContentType)
        {
            Fail(
                new Status(StatusCode.Cancelled, _contentType is null ? "Bad gRPC response. Response did not have a content-type header." : $"Bad gRPC response. Invalid content-type value: {_contentType}"),
                reset: !endStream);
        }
        else if (endStream)
        {
            Fail(GrpcStatuses.NoStatus, reset: false);
        }
    }

    /// <summary>A DATA frame's payload, padding removed (the stream's window is the connection's to count, <see cref="Received"/>).</summary>
    public void OnData(ReadOnlySpan<byte> data, bool endStream)
    {
        if (!_headersDone)
        {
            Fail(new Status(StatusCode.Internal, "Bad gRPC response. DATA before the response's headers."), reset: true);
            return;
        }

        if (HasReply && !data.IsEmpty)
        {
            Fail(GrpcStatuses.ExcessData, reset: true);
            return;
        }

        if (!data.IsEmpty && !IsDone)
        {
            ReadMessage(data);
        }

        if (endStream)
        {
            Fail(GrpcStatuses.NoStatus, reset: false); // no trailers
        }
    }

    /// <summary>Completes the call with <paramref name="status"/>; <paramref name="reset"/> asks the server to stop the stream (RST_STREAM CANCEL) if it was opened.</summary>
    public void Fail(Status status, bool reset)
    {
        if (Claim())
        {
            Release(reset);
            SetException(new RpcException(status));
        }
    }

    protected abstract void ParseReply(ReadOnlySpan<byte> message);

    protected abstract void SetReply();

    protected abstract void SetException(Exception exception);

    private void Finish(bool endStream, bool reset = false)
    {
        if (!endStream)
        {
            Fail(new Status(StatusCode.Internal, "Bad gRPC response. Trailers without END_STREAM."), reset: true);
        }
        else if (_grpcStatus == NoStatus)
        {
            Fail(GrpcStatuses.NoStatus, reset);
        }
        else if (_grpcStatus == BadStatus)
        {
            Fail(_badStatus, reset);
        }
        else if (_grpcStatus != 0)
        {
            Fail(GrpcStatuses.FromServer(_grpcStatus, _grpcMessage), reset);
        }
        else if (!HasReply)
        {
            Fail(GrpcStatuses.BadReply, reset);
        }
        else if (Claim())
        {
            Release(reset);
            SetReply();
        }
    }

    private void ReadMessage(ReadOnlySpan<byte> data)
    {
        if (_partialLength == 0 && data.Length >= 5)
        {
            // Most replies come whole in one frame: parsed from the read buffer, no copy.
            var length = BinaryPrimitives.ReadUInt32BigEndian(data[1..]);
            if (length > (uint)maxReceiveMessageSize)
            {
                Fail(GrpcStatuses.MessageTooLarge, reset: true);
                return;
            }

            if (data.Length >= 5 + (long)length)
            {
                Parse(data[..(5 + (int)length)]);
                if (data.Length > 5 + (long)length)
                {
                    Fail(GrpcStatuses.ExcessData, reset: true);
                }

                return;
            }
        }

        if (_partialLength < 5)
        {
            // The prefix first, which may itself come in pieces, so the message's length is known before it is buffered.
            _partial ??= new byte[256];
            var prefix = Math.Min(5 - _partialLength, data.Length);
            data[..prefix].CopyTo(_partial.AsSpan(_partialLength));
            _partialLength += prefix;
            data = data[prefix..];
            if (_partialLength < 5)
            {
                return;
            }

            var length = BinaryPrimitives.ReadUInt32BigEndian(_partial.AsSpan(1));
            if (length > (uint)maxReceiveMessageSize)
            {
                Fail(GrpcStatuses.MessageTooLarge, reset: true);
                return;
            }

            _messageLength = 5 + (int)length;
        }

        if (data.Length > _messageLength - _partialLength)
        {
            Fail(GrpcStatuses.ExcessData, reset: true);
            return;
        }

        if (_partial!.Length < _partialLength + data.Length)
        {
            // Doubling, as the bytes come, up to the message's own length: no more than twice what was received.
            Array.Resize(ref _partial, (int)Math.Min(_messageLength, Math.Max(_partialLength + data.Length, 2L * _partial.Length)));
        }

        data.CopyTo(_partial.AsSpan(_partialLength));
        _partialLength += data.Length;
        if (_partialLength == _messageLength)
        {
            Parse(_partial.AsSpan(0, _partialLength));
            _partial = null;
        }
    }

    private void Parse(ReadOnlySpan<byte> framed)
    {
        if (framed[0] != 0)
        {
            // The runner advertises no grpc-accept-encoding, so a compressed reply is the server's error.
            Fail(new Status(StatusCode.Internal, "Bad gRPC response. A compressed message, though none was accepted."), reset: true);
            return;
        }

        try
        {
            ParseReply(framed[5..]);
        }
        catch (InvalidProtocolBufferException)
        {
            Fail(GrpcStatuses.BadReply, reset: true);
        }
    }

    private bool Claim() => Interlocked.Exchange(ref _done, 1) == 0;

    private void Release(bool reset)
    {
        _cancellation.Unregister();
        Connection?.Release(this, reset);
    }

    private static int ParseInt(ReadOnlySpan<byte> value)
    {
        var result = 0;
        foreach (var c in value)
        {
            if (c is < (byte)'0' or > (byte)'9' || result > 100_000)
            {
                return BadStatus;
            }

            result = (result * 10) + (c - '0');
        }

        return value.IsEmpty ? BadStatus : result;
    }
}

/// <summary>A unary call whose reply is a generated protobuf message, completed through a task.</summary>
internal sealed class UnaryCall<TReply>(byte[] headerBlock, byte[] body, MessageParser<TReply> parser, bool runContinuationsAsynchronously, int maxReceiveMessageSize)
    : Http2Stream(headerBlock, body, maxReceiveMessageSize)
    where TReply : IMessage<TReply>
{
    private readonly TaskCompletionSource<TReply> _completion = new(
        runContinuationsAsynchronously ? TaskCreationOptions.RunContinuationsAsynchronously : TaskCreationOptions.None);

    private TReply? _reply;

    public Task<TReply> Task => _completion.Task;

    protected override bool HasReply => _reply is not null;

    protected override void ParseReply(ReadOnlySpan<byte> message) => _reply = parser.ParseFrom(message);

    protected override void SetReply() => _completion.TrySetResult(_reply!);

    protected override void SetException(Exception exception) => _completion.TrySetException(exception);
}
