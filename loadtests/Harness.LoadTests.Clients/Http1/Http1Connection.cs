using System.Buffers.Text;
using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;

namespace Harness.LoadTests.Clients.Http1;

/// <summary>
/// One kept-alive HTTP/1.1 connection carrying one exchange at a time: the request written with one send from a buffer
/// the connection keeps, the response read into another it keeps, and its body left there for the caller to read
/// before the next exchange. Nothing is allocated per exchange once both buffers have grown to the calls' size.
/// The receive buffer grows with the bytes that came, never ahead of them (a declared length bounds it, it does not
/// size it), and no further than the reader's bounds (<see cref="Http1ResponseReader.MaxBufferSize"/>).
/// A deadline (or the caller's cancellation) aborts the socket, which ends the exchange's pending send or receive.
/// </summary>
internal sealed class Http1Connection : IDisposable
{
    private const int FirstBufferSize = 4096;
    private const int MinReceiveSize = 1024;
    private const int NotAborted = 0;
    private const int TimedOut = 1;
    private const int Cancelled = 2;

    private readonly Socket _socket;
    private readonly CancellationTokenSource _deadline = new();
    private readonly Http1ResponseReader _reader;
    private byte[] _send = [];
    private byte[] _receive;
    private int _filled;
    private int _aborted;

    private Http1Connection(Socket socket, int maxBodySize, byte[]? receiveBuffer)
    {
        _socket = socket;
        _reader = new Http1ResponseReader(maxBodySize);
        _receive = receiveBuffer ?? new byte[FirstBufferSize];
        _deadline.Token.UnsafeRegister(static s => ((Http1Connection)s!).Abort(TimedOut), this);
    }

    /// <summary>How many exchanges the connection has begun: more than 0 is a kept-alive connection being reused.</summary>
    public int Exchanges { get; private set; }

    /// <summary>True once any byte of the current exchange's response has arrived.</summary>
    public bool ReceivedAny { get; private set; }

    /// <summary>True when the last exchange's deadline passed and aborted it.</summary>
    public bool HasTimedOut => Volatile.Read(ref _aborted) == TimedOut;

    /// <summary>True when the caller's cancellation aborted the last exchange.</summary>
    public bool WasCancelled => Volatile.Read(ref _aborted) == Cancelled;

    /// <summary>The receive buffer's size: what the connection holds between exchanges.</summary>
    public int ReceiveBufferSize => _receive.Length;

    /// <param name="maxBodySize">The largest response body the connection takes (<see cref="Http1ResponseReader.MaxBodySize"/>).</param>
    /// <param name="receiveBuffer">A closed connection's buffer to receive into (<see cref="TakeReceiveBuffer"/>); null for a new one.</param>
    /// <exception cref="SocketException">No connection within <paramref name="connectTimeout"/> (TimedOut), or refused.</exception>
    public static async Task<Http1Connection> OpenAsync(
        EndPoint endPoint, TimeSpan connectTimeout, int maxBodySize, byte[]? receiveBuffer, CancellationToken cancellationToken)
    {
        var socket = endPoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(connectTimeout);
            try
            {
                await socket.ConnectAsync(endPoint, timeout.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                throw new SocketException((int)SocketError.TimedOut);
            }

            return new Http1Connection(socket, maxBodySize, receiveBuffer);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Sends <paramref name="head"/> (a request head ending in <c>Content-Length: </c>), the body's length and the body,
    /// and reads the whole response. 1xx responses are skipped.
    /// </summary>
    /// <remarks>An exchange that fails, a bound exceeded included, leaves the connection unusable: the caller closes it.</remarks>
    /// <param name="capture">The header whose value the response locates (any case); empty for none.</param>
    /// <exception cref="SocketException">The connection failed.</exception>
    /// <exception cref="HttpIOException">
    /// The response ended early, or is not HTTP/1.x (FormatException inside), or exceeds a bound of
    /// <see cref="Http1ResponseReader"/> (<see cref="HttpRequestError.ConfigurationLimitExceeded"/>).
    /// </exception>
    /// <exception cref="ObjectDisposedException">The exchange was aborted (<see cref="HasTimedOut"/>, <see cref="WasCancelled"/>).</exception>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))] // one exchange at a time: its state machine is reused
    public async ValueTask<Http1Response> ExchangeAsync(
        ReadOnlyMemory<byte> head, ReadOnlyMemory<byte> body, byte[] capture, TimeSpan timeout, CancellationToken cancellationToken)
    {
        Exchanges++;
        ReceivedAny = false;
        _filled = 0;
        _deadline.CancelAfter(timeout);
        var cancellation = cancellationToken.CanBeCanceled
            ? cancellationToken.UnsafeRegister(static s => ((Http1Connection)s!).Abort(Cancelled), this)
            : default;
        try
        {
            Write(head.Span, body.Span, out var length);
            for (var sent = 0; sent < length;)
            {
                sent += await _socket.SendAsync(_send.AsMemory(sent, length - sent), SocketFlags.None).ConfigureAwait(false);
            }

            // One receive loop; the reader says when the response is whole.
            _reader.Reset(capture);
            while (true)
            {
                Reserve();
                var read = await _socket.ReceiveAsync(_receive.AsMemory(_filled), SocketFlags.None).ConfigureAwait(false);
                if (read == 0)
                {
                    return _reader.EndsAtClose
                        ? _reader.Closed(_filled)
                        : throw new HttpIOException(HttpRequestError.ResponseEnded, "The response ended prematurely.");
                }

                ReceivedAny = true;
                _filled += read;
                if (_reader.TryRead(_receive, ref _filled, out var response))
                {
                    return response;
                }
            }
        }
        catch (FormatException ex)
        {
            throw new HttpIOException(HttpRequestError.InvalidResponse, ex.Message, ex);
        }
        finally
        {
            cancellation.Dispose();

            // A deadline that fired after the response arrived still aborted the socket: TryReset says so.
            if (!_deadline.TryReset())
            {
                Abort(TimedOut);
            }
        }
    }

    /// <summary>The current response's bytes at <paramref name="start"/> (its body or captured header).</summary>
    public ReadOnlySpan<byte> Slice(int start, int length) => start < 0 ? [] : _receive.AsSpan(start, length);

    /// <summary>True when the connection may carry another exchange (it was not aborted).</summary>
    public bool IsUsable => Volatile.Read(ref _aborted) == NotAborted;

    public void Dispose()
    {
        // Leaves _aborted as it is: why the last exchange failed is read after the connection is closed.
        _socket.Dispose();
        _deadline.Dispose();
    }

    /// <summary>
    /// The receive buffer, for another connection; the connection keeps none. Only once it is disposed and no exchange
    /// is under way: a pending receive would still write into it.
    /// </summary>
    public byte[] TakeReceiveBuffer()
    {
        var buffer = _receive;
        _receive = [];
        return buffer;
    }

    private void Abort(int reason)
    {
        Interlocked.CompareExchange(ref _aborted, reason, NotAborted);
        _socket.Dispose();
    }

    /// <summary>The request into the send buffer: the head, the body's length, a blank line, the body.</summary>
    private void Write(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, out int length)
    {
        var size = head.Length + 10 + 4 + body.Length;
        if (_send.Length < size)
        {
            _send = new byte[Math.Max(size, Math.Min(2 * _send.Length, Array.MaxLength))];
        }

        head.CopyTo(_send);
        var at = head.Length;
        Utf8Formatter.TryFormat(body.Length, _send.AsSpan(at), out var digits);
        at += digits;
        "\r\n\r\n"u8.CopyTo(_send.AsSpan(at));
        at += 4;
        body.CopyTo(_send.AsSpan(at));
        length = at + body.Length;
    }

    /// <summary>
    /// Room for the next receive: at least <see cref="MinReceiveSize"/> bytes, or all the response still needs when the
    /// reader knows it. The buffer doubles, up to what the response needs when known, else to the reader's bound.
    /// </summary>
    private void Reserve()
    {
        var free = _receive.Length - _filled;
        if (free >= MinReceiveSize)
        {
            return;
        }

        // The reader fails a response before it fills MaxBufferSize, so the buffer never has to grow past it.
        var wanted = _reader.RequiredSize > _filled ? _reader.RequiredSize : _reader.MaxBufferSize;
        if (_filled >= wanted)
        {
            throw new HttpIOException(HttpRequestError.ConfigurationLimitExceeded, $"The reply is larger than the client takes ({_reader.MaxBufferSize} bytes).");
        }

        if (free >= wanted - _filled)
        {
            return;
        }

        // Not only when full: a chunked body's framing, dropped in place, can leave a few bytes free, and receives that small would cost a call each.
        var larger = new byte[Math.Min(Math.Max(2L * _receive.Length, _filled + MinReceiveSize), wanted)];
        _receive.AsSpan(0, _filled).CopyTo(larger);
        _receive = larger;
    }
}
