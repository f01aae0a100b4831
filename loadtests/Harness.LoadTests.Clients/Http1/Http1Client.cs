using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Harness.LoadTests.Clients.Http1;

/// <summary>
/// Posts to one plain-text HTTP/1.1 endpoint over kept-alive connections, one call per connection at a time and as many
/// connections as calls in flight, as wrk does: the request's head is built once (<see cref="RequestHead"/>), and the
/// response is read into the connection's own buffer and handed to the caller as spans, so a call allocates almost
/// nothing. It fails as <see cref="HttpClient"/> does, so that failures keep their names (FailureStatus): no connection
/// is an <see cref="HttpRequestException"/> of <see cref="HttpRequestError.ConnectionError"/> over the
/// <see cref="SocketException"/>; a connection lost mid-call one over an <see cref="IOException"/>; the timeout a
/// <see cref="TaskCanceledException"/> over a <see cref="TimeoutException"/>. As HttpClient does, a request whose
/// kept-alive connection turns out closed before any byte of the reply came is sent once more on a new connection.
/// A response past one of the reader's bounds (<see cref="Http1ResponseReader"/>: the head, interim responses, the
/// body's size) is an <see cref="HttpRequestException"/> of <see cref="HttpRequestError.ConfigurationLimitExceeded"/>, as
/// HttpClient's own limits are, and its connection is closed: it is not read further. A closed connection's receive
/// buffer is handed to the next connection opened, so that a server that fails every call at a bound does not make
/// each call allocate its buffer afresh: the buffers never outnumber the connections that were open at once.
/// </summary>
internal sealed partial class Http1Client : IDisposable
{
    private readonly EndPoint _endPoint;
    private readonly Uri _endpoint;
    private readonly TimeSpan _timeout;
    private readonly TimeSpan _connectTimeout;
    private readonly byte[] _capture;
    private readonly Func<HttpRequestException, Exception>? _rename;
    private readonly int _maxBodySize;
    private readonly ConcurrentQueue<Http1Connection> _idle = new();
    private readonly ConcurrentStack<byte[]> _spareBuffers = new();
    private readonly ILogger _logger;
    private volatile bool _disposed;

    /// <param name="endpoint">An <c>http://</c> address, or <c>unix:///path</c> for a Unix domain socket (the path's request path is then <c>/</c>).</param>
    /// <param name="timeout">A call's whole time, from sending to the last byte of its reply; also the longest a connect may take, up to 10 s.</param>
    /// <param name="captureHeader">A response header whose value every reply hands back (<see cref="ReplyHandler{TState, T}"/>); empty for none.</param>
    /// <param name="rename">Turns each transport failure into the exception the caller's callers expect (the WCF client's, for SOAP); null to leave them.</param>
    /// <param name="maxBodySize">The largest response body taken; a longer one fails the call.</param>
    /// <param name="loggerFactory">Where the connections' events are logged (docs/hostile-servers.md, "Tracing the clients"); nowhere when null.</param>
    public Http1Client(
        Uri endpoint,
        TimeSpan timeout,
        string captureHeader,
        Func<HttpRequestException, Exception>? rename = null,
        int maxBodySize = Http1ResponseReader.DefaultMaxBodySize,
        ILoggerFactory? loggerFactory = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentOutOfRangeException.ThrowIfNegative(maxBodySize);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxBodySize, Http1ResponseReader.LargestMaxBodySize);
        _endPoint = endpoint.Scheme switch
        {
            "http" => IPAddress.TryParse(endpoint.IdnHost, out var ip) ? new IPEndPoint(ip, endpoint.Port) : new DnsEndPoint(endpoint.IdnHost, endpoint.Port),
            "unix" => new UnixDomainSocketEndPoint(Uri.UnescapeDataString(endpoint.AbsolutePath)),
            _ => throw new ArgumentException($"the HTTP/1.1 client speaks plain text (http:// or unix://), not {endpoint.Scheme}://", nameof(endpoint)),
        };
        _endpoint = endpoint;
        _timeout = timeout;
        _connectTimeout = CallTimeouts.ConnectTimeout(timeout);
        _capture = Encoding.ASCII.GetBytes(captureHeader);
        _rename = rename;
        _maxBodySize = maxBodySize;
        _logger = loggerFactory?.CreateLogger<Http1Client>() ?? NullLogger<Http1Client>.Instance;
    }

    /// <summary>Receive buffers of closed connections, waiting for the next connection opened.</summary>
    internal int SpareBuffers => _spareBuffers.Count;

    /// <summary>Reads a reply while its bytes are the connection's; it must not keep the spans.</summary>
    /// <param name="captured">The value of the client's captured header; empty when the reply has none.</param>
    public delegate T ReplyHandler<in TState, out T>(TState state, int status, ReadOnlySpan<byte> body, ReadOnlySpan<byte> captured);

    /// <summary>
    /// A POST's head up to <c>Content-Length: </c>, whose value each call writes: request line, Host, then
    /// <paramref name="headers"/> in order.
    /// </summary>
    /// <exception cref="ArgumentException">A header's name is not an HTTP token, or its value holds a line break.</exception>
    public byte[] RequestHead(IEnumerable<KeyValuePair<string, string>> headers)
    {
        var host = _endpoint.Scheme == "unix" ? "localhost" : _endpoint.Authority;
        var path = _endpoint.Scheme == "unix" ? "/" : _endpoint.PathAndQuery;
        var head = new StringBuilder().Append("POST ").Append(path).Append(" HTTP/1.1\r\nHost: ").Append(host).Append("\r\n");
        foreach (var (name, value) in headers)
        {
            if (name.Length == 0 || !name.All(IsTokenChar))
            {
                throw new ArgumentException($"the header name \"{name}\" is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~)", nameof(headers));
            }

            if (value.AsSpan().IndexOfAny('\r', '\n', '\0') >= 0)
            {
                throw new ArgumentException($"the value of header \"{name}\" holds a line break or NUL, which HTTP/1.1 does not allow", nameof(headers));
            }

            head.Append(name).Append(": ").Append(value).Append("\r\n");
        }

        return Encoding.UTF8.GetBytes(head.Append("Content-Length: ").ToString());
    }

    /// <summary>Posts <paramref name="body"/> after <paramref name="head"/> and hands the reply to <paramref name="handle"/>.</summary>
    public async Task<T> PostAsync<TState, T>(byte[] head, byte[] body, TState state, ReplyHandler<TState, T> handle, CancellationToken cancellationToken)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        for (var attempt = 1; ; attempt++)
        {
            // A retry takes a new connection: the idle ones may have been closed by the same server timeout.
            var connection = attempt == 1 && _idle.TryDequeue(out var idle) ? idle : await OpenAsync(cancellationToken).ConfigureAwait(false);
            var reused = connection.Exchanges > 0;
            Http1Response response;
            try
            {
                response = await connection.ExchangeAsync(head, body, _capture, _timeout, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException)
            {
                TraceFailedReply(ex);
                Close(connection, connection.HasTimedOut ? "the call's timeout" : connection.WasCancelled ? "the call was cancelled" : ex.Message);
                if (reused && attempt == 1 && !connection.ReceivedAny && !connection.HasTimedOut && !cancellationToken.IsCancellationRequested)
                {
                    // The server had closed the idle connection; the request never reached it.
                    continue;
                }

                throw Renamed(Failure(ex, connection, cancellationToken));
            }

            try
            {
                return handle(
                    state,
                    response.Status,
                    connection.Slice(response.BodyStart, response.BodyLength),
                    connection.Slice(response.CapturedStart, response.CapturedLength));
            }
            finally
            {
                Release(connection, response.KeepAlive);
            }
        }
    }

    public void Dispose()
    {
        _disposed = true;
        while (_idle.TryDequeue(out var connection))
        {
            connection.Dispose();
            TraceClosed("the client was disposed");
        }

        _spareBuffers.Clear();
    }

    private async Task<Http1Connection> OpenAsync(CancellationToken cancellationToken)
    {
        _spareBuffers.TryPop(out var buffer);
        var opened = false;
        try
        {
            var connection = await Http1Connection.OpenAsync(_endPoint, _connectTimeout, _maxBodySize, buffer, cancellationToken).ConfigureAwait(false);
            opened = true;
            TraceOpened();
            return connection;
        }
        catch (SocketException ex)
        {
            TraceConnectFailed(ex);
            throw Renamed(new HttpRequestException(HttpRequestError.ConnectionError, $"{ex.Message} ({_endpoint.Authority})", ex));
        }
        catch (OperationCanceledException ex)
        {
            throw new TaskCanceledException("The operation was canceled.", ex, cancellationToken);
        }
        finally
        {
            if (!opened && buffer is not null)
            {
                _spareBuffers.Push(buffer);
            }
        }
    }

    private void Release(Http1Connection connection, bool keepAlive)
    {
        if (keepAlive && connection.IsUsable && !_disposed)
        {
            _idle.Enqueue(connection);
            if (_disposed && _idle.TryDequeue(out var late))
            {
                late.Dispose();
                TraceClosed("the client was disposed");
            }
        }
        else
        {
            Close(connection, !keepAlive ? "the reply did not keep it alive" : _disposed ? "the client was disposed" : "its exchange was aborted");
        }
    }

    /// <summary>Closes a connection whose exchange is over, and keeps its buffer for the next connection.</summary>
    private void Close(Http1Connection connection, string reason)
    {
        connection.Dispose();
        TraceClosed(reason);
        if (!_disposed)
        {
            _spareBuffers.Push(connection.TakeReceiveBuffer());
        }
    }

    private Exception Renamed(Exception failure) => failure is HttpRequestException http && _rename is { } rename ? rename(http) : failure;

    /// <summary>The exception HttpClient throws for the same failure.</summary>
    private Exception Failure(Exception ex, Http1Connection connection, CancellationToken cancellationToken)
    {
        if (connection.HasTimedOut)
        {
            return new TaskCanceledException(
                $"The request was canceled due to the configured timeout of {_timeout.TotalSeconds} seconds elapsing.", new TimeoutException(ex.Message, ex));
        }

        if (connection.WasCancelled || cancellationToken.IsCancellationRequested)
        {
            return new TaskCanceledException("The operation was canceled.", ex, cancellationToken);
        }

        return ex switch
        {
            // HttpClient names the limit in its message ("…exceeded the set limit of 65536 bytes").
            HttpIOException { HttpRequestError: HttpRequestError.ConfigurationLimitExceeded } io => new HttpRequestException(io.HttpRequestError, io.Message, io),
            HttpIOException io => new HttpRequestException(io.HttpRequestError, "An error occurred while sending the request.", io),
            SocketException socket => new HttpRequestException(
                HttpRequestError.Unknown,
                "An error occurred while sending the request.",
                new IOException($"Unable to read data from the transport connection: {socket.Message}.", socket)),
            _ => new HttpRequestException(HttpRequestError.Unknown, "An error occurred while sending the request.", ex),
        };
    }

    private static bool IsTokenChar(char c) => char.IsAsciiLetterOrDigit(c) || "!#$%&'*+-.^_`|~".Contains(c, StringComparison.Ordinal);
}
