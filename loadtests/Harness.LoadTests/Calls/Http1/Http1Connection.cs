using System.Buffers.Text;
using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;

namespace Harness.LoadTests.Calls.Http1;

/// <summary>
/// One kept-alive HTTP/1.1 connection carrying one exchange at a time: the request written with one send from a buffer
/// the connection keeps, the response read into another it keeps, and its body left there for the caller to read
/// before the next exchange. Nothing is allocated per exchange once both buffers have grown to the calls' size.
/// A deadline (or the caller's cancellation) aborts the socket, which ends the exchange's pending send or receive.
/// </summary>
internal sealed class Http1Connection : IDisposable
{
    private const int FirstBufferSize = 4096;
    private const int NotAborted = 0;
    private const int TimedOut = 1;
    private const int Cancelled = 2;

    private readonly Socket _socket;
    private readonly CancellationTokenSource _deadline = new();
    private readonly Http1ResponseReader _reader = new();
    private byte[] _send = [];
    private byte[] _receive = new byte[FirstBufferSize];
    private int _filled;
    private int _aborted;

    private Http1Connection(Socket socket)
    {
        _socket = socket;
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

    /// <exception cref="SocketException">No connection within <paramref name="connectTimeout"/> (TimedOut), or refused.</exception>
    public static async Task<Http1Connection> OpenAsync(EndPoint endPoint, TimeSpan connectTimeout, CancellationToken cancellationToken)
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

            return new Http1Connection(socket);
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
    /// <param name="capture">The header whose value the response locates (any case); empty for none.</param>
    /// <exception cref="SocketException">The connection failed.</exception>
    /// <exception cref="HttpIOException">The response ended early, or is not HTTP/1.x (FormatException inside).</exception>
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
                Reserve(Math.Max(_reader.RequiredSize, _filled + 1));
                var read = await _socket.ReceiveAsync(_receive.AsMemory(_filled), SocketFlags.None).ConfigureAwait(false);
                if (read == 0)
                {
                    return _reader.EndsAtClose
                        ? _reader.Closed(_filled)
                        : throw new HttpIOException(HttpRequestError.ResponseEnded, "The response ended prematurely.");
                }

                ReceivedAny = true;
                _filled += read;
                if (_reader.TryRead(_receive, _filled, out var response))
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

    private void Reserve(int size)
    {
        if (size > _receive.Length)
        {
            var larger = new byte[Math.Max(size, Math.Min(2 * (long)_receive.Length, Http1ResponseReader.MaxBodySize + Http1ResponseReader.MaxHeadSize))];
            _receive.AsSpan(0, _filled).CopyTo(larger);
            _receive = larger;
        }
    }
}
