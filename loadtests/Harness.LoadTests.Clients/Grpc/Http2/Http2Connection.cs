using System.Runtime.CompilerServices;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Threading.Channels;
using Grpc.Core;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// One HTTP/2 connection carrying many unary calls at once: a writer loop that drains a queue of new streams and
/// control frames into one buffer and one socket send (the coalescing is most of the saving over SocketsHttpHandler),
/// and a reader loop that parses the server's frames from a large buffer and completes the calls
/// (<see cref="Http2Connection"/>'s Reader part). It takes no new calls once the server says GOAWAY, its stream ids
/// run out, or it broke; the pool then opens another. A server that breaks the protocol or a bound
/// (<see cref="Http2Limits"/>) is sent a GOAWAY with the error and the connection closes (<see cref="Abort"/>).
/// </summary>
internal sealed partial class Http2Connection
{
    private static readonly object Wake = new();

    // How long a GOAWAY may take to go out before the socket closes anyway (a server that does not read).
    private static readonly TimeSpan GoAwayTimeout = TimeSpan.FromSeconds(1);

    private readonly Http2ConnectionPool _pool;
    private readonly EndPoint _endPoint;
    private readonly Socket _socket;
    private readonly long _streamBudget;
    private readonly int _streamReceiveWindow;
    private readonly TimeSpan _connectTimeout;
    private readonly SslClientAuthenticationOptions? _tlsOptions;
    private readonly Channel<object> _writes = Channel.CreateUnbounded<object>(new UnboundedChannelOptions { SingleReader = false, SingleWriter = false });
    private readonly Dictionary<int, Http2Stream> _streams = [];
    private readonly Lock _sync = new();
    private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private long _started;          // calls ever reserved on this connection, against _streamBudget
    private int _reserved;          // calls reserved and not finished
    private int _open;              // streams opened and not finished (under _sync)
    private volatile int _maxConcurrent = 100; // the server's SETTINGS_MAX_CONCURRENT_STREAMS; Kestrel's default until it says
    private int _peerInitialWindow = Http2Frames.DefaultWindow; // under _sync
    private int _connectionSendWindow = Http2Frames.DefaultWindow;
    private volatile int _peerMaxFrameSize = Http2Frames.DefaultMaxFrameSize;
    private volatile bool _draining;
    private volatile bool _goingAway;
    private volatile bool _writerWaiting;
    private volatile StrongBox<Status>? _failed; // set once, under _sync
    private volatile byte[]? _goAway;            // the GOAWAY the writer sends last, when the runner closes for an error
    private Task? _writeLoop;
    private SslStream? _tls; // over the socket when the target is https://; set before the loops start

    private Status? Failure => _failed?.Value;

    /// <param name="streamBudget">How many calls the connection carries in its life: its stream ids (odd, below 2^31) run out at about 2^30.</param>
    /// <param name="streamReceiveWindow">The receive window advertised per stream, and held to.</param>
    /// <param name="connectTimeout">
    /// The longest the TCP connect may take (<see cref="CallTimeouts.ConnectTimeout"/>). The wait for the server's SETTINGS
    /// that follows is in each call's deadline already; the connection gives it up after 10 s.
    /// </param>
    /// <param name="tls">The handshake's options for an https:// target (ALPN h2); null for plain text.</param>
    public Http2Connection(
        Http2ConnectionPool pool, EndPoint endPoint, long streamBudget, int streamReceiveWindow, TimeSpan connectTimeout, SslClientAuthenticationOptions? tls = null)
    {
        _tlsOptions = tls;
        _pool = pool;
        _endPoint = endPoint;
        _streamBudget = streamBudget;
        _streamReceiveWindow = streamReceiveWindow;
        _connectTimeout = connectTimeout;
        _socket = endPoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        StartSweeping();
    }

    /// <summary>True while it may take new calls (tests).</summary>
    internal bool IsUsable => !_draining && _failed is null;

    public void Open() => _ = ConnectAsync();

    /// <summary>Takes a place for one call, if the connection is usable and below the server's stream limit.</summary>
    public bool TryReserve()
    {
        if (_draining || _failed is not null)
        {
            return false;
        }

        if (Interlocked.Increment(ref _reserved) > _maxConcurrent)
        {
            ReleaseReservation();
            return false;
        }

        if (Interlocked.Increment(ref _started) > _streamBudget)
        {
            // The stream ids are spent: finish the calls in flight and close, a new connection takes the next.
            _draining = true;
            _pool.Remove(this);
        }

        // Checked again after counting, so that a connection about to close for draining never takes a call.
        if (_draining || _failed is not null)
        {
            ReleaseReservation();
            return false;
        }

        return true;
    }

    /// <summary>Sends a call reserved with <see cref="TryReserve"/>.</summary>
    public void Start(Http2Stream stream, CancellationToken cancellationToken)
    {
        stream.Connection = this;
        stream.WatchCancellation(cancellationToken);
        if (_ready.Task.IsCompletedSuccessfully)
        {
            Enqueue(stream);
        }
        else
        {
            WaitForReady(stream);
            _ = StartWhenReadyAsync(stream);
        }
    }

    /// <summary>A call finished: frees its place, and asks the server to drop the stream when <paramref name="reset"/>.</summary>
    public void Release(Http2Stream stream, bool reset)
    {
        bool opened;
        lock (_sync)
        {
            opened = stream.Id != 0 && _streams.Remove(stream.Id);
            if (opened)
            {
                _open--;
            }
        }

        if (opened && reset && _failed is null)
        {
            _writes.Writer.TryWrite(Http2Frames.Reset(stream.Id, Http2Frames.Cancel));
        }

        if (_writerWaiting)
        {
            _writes.Writer.TryWrite(Wake);
        }

        ReleaseReservation();
    }

    /// <summary>Closes the connection, failing whatever is in flight with <paramref name="status"/>.</summary>
    public void Fail(Status status) => Fail(status, goAway: null);

    /// <summary>
    /// The server broke HTTP/2 or a bound: the calls fail as on a lost connection (so the engine backs off), and the
    /// server is told why with a GOAWAY of <paramref name="errorCode"/>, sent after what the writer has in hand.
    /// </summary>
    private void Abort(uint errorCode, string reason)
    {
        if (_failed is null)
        {
            TraceProtocolError(errorCode, reason);
        }

        Fail(GrpcStatuses.ForProtocolError(errorCode, reason), Http2Frames.GoAwayFrame(0, errorCode));
    }

    private void Fail(Status status, byte[]? goAway)
    {
        List<Http2Stream> streams;
        lock (_sync)
        {
            if (_failed is not null)
            {
                return;
            }

            _failed = new StrongBox<Status>(status);
            streams = [.. _streams.Values];
            _streams.Clear();
            _open = 0;
        }

        TraceClosed(status);
        StopSweeping();
        _pool.Remove(this);
        _goAway = goAway;
        _writes.Writer.TryComplete();
        _ready.TrySetException(new RpcException(status));
        if (goAway is not null && _writeLoop is { } writer)
        {
            _ = CloseAfterAsync(writer);
        }
        else
        {
            _socket.Dispose();
            _tls?.Dispose();
        }

        foreach (var stream in streams)
        {
            stream.Fail(status, reset: false);
        }

        // Calls still queued for the writer are failed by it as it stops.
    }

    private async Task CloseAfterAsync(Task writer)
    {
        await Task.WhenAny(writer, Task.Delay(GoAwayTimeout)).ConfigureAwait(false);
        _socket.Dispose();
        _tls?.Dispose();
    }

    private void ReleaseReservation()
    {
        if (Interlocked.Decrement(ref _reserved) == 0 && _draining)
        {
            Fail(new Status(StatusCode.Unavailable, "The HTTP/2 connection was closed after its last call.", GrpcStatuses.ConnectionClosed()));
        }
    }

    private void Enqueue(Http2Stream stream)
    {
        if (!_writes.Writer.TryWrite(stream))
        {
            stream.Fail(Failure ?? GrpcStatuses.ForConnection(GrpcStatuses.ConnectionClosed()), reset: false);
        }
    }

    private async Task StartWhenReadyAsync(Http2Stream stream)
    {
        try
        {
            await _ready.Task.ConfigureAwait(false);
        }
        catch (RpcException ex)
        {
            Ready(stream);
            stream.Fail(ex.Status, reset: false);
            return;
        }

        Ready(stream);
        Enqueue(stream);
    }

    private async Task ConnectAsync()
    {
        try
        {
            using (var timeout = new CancellationTokenSource(_connectTimeout))
            {
                try
                {
                    await _socket.ConnectAsync(_endPoint, timeout.Token).ConfigureAwait(false);
                    if (_tlsOptions is { } tls)
                    {
                        await HandshakeAsync(tls, timeout.Token).ConfigureAwait(false);
                    }
                }
                catch (OperationCanceledException)
                {
                    ExpireWaitingDueBy(Environment.TickCount64 + (long)DeadlineSweep.TotalMilliseconds);
                    throw _socket.Connected && _tlsOptions is { } tls
                        ? new TlsHandshakeException(
                            ClientTls.HandshakeFailed(tls.TargetHost!, new TimeoutException($"it did not finish within {_connectTimeout.TotalSeconds:0.###}s.")),
                            new SocketException((int)SocketError.TimedOut))
                        : new SocketException((int)SocketError.TimedOut);
                }
            }

            TraceOpened();
            _writeLoop = WriteLoopAsync();
            _ = ReadLoopAsync();

            // Calls wait for the server's SETTINGS, so that its stream limit and windows are known before the first one.
            await _ready.Task.WaitAsync(CallTimeouts.MaxConnectTimeout).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            Fail(GrpcStatuses.ForConnection(new IOException("The server sent no HTTP/2 SETTINGS.", new SocketException((int)SocketError.TimedOut))));
        }
        catch (RpcException)
        {
            // Failed already (Fail), with the cause.
        }
        catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException or System.Security.Authentication.AuthenticationException)
        {
            Fail(GrpcStatuses.ForConnection(ex));
        }
        catch (Exception ex)
        {
            // Whatever it is, the calls waiting for this connection must not wait for ever.
            Fail(Unexpected(ex));
        }
    }

    /// <summary>TLS over the connected socket, bounded by the connect's own timeout; the server must select h2 by ALPN.</summary>
    private async Task HandshakeAsync(SslClientAuthenticationOptions options, CancellationToken cancellationToken)
    {
        var tls = new SslStream(new NetworkStream(_socket, ownsSocket: false), leaveInnerStreamOpen: false);
        try
        {
            await tls.AuthenticateAsClientAsync(options, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is System.Security.Authentication.AuthenticationException or IOException)
        {
            tls.Dispose();
            // A server without HTTP/2 over TLS refuses an ALPN offer of h2 alone with an alert, which says no more than that.
            throw new TlsHandshakeException(
                ClientTls.HandshakeFailed(options.TargetHost!, ex) + " (ALPN offered h2 only: a server that does not select h2 refuses the handshake.)", ex);
        }
        catch
        {
            tls.Dispose();
            throw;
        }

        if (tls.NegotiatedApplicationProtocol != SslApplicationProtocol.Http2)
        {
            tls.Dispose();
            throw new TlsHandshakeException(
                $"The server {options.TargetHost} did not select HTTP/2 (ALPN h2) in the TLS handshake, which gRPC needs; it selected '{tls.NegotiatedApplicationProtocol}'.");
        }

        _tls = tls;
    }

    private static Status Unexpected(Exception ex) => new(StatusCode.Internal, $"The HTTP/2 client failed: {ex.GetType().Name}: {ex.Message}", ex);
}
