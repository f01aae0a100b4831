using System.Net;
using System.Net.Security;
using Grpc.Core;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// The connections to one server: a call goes to the first with a free place under the server's stream limit, so
/// 32 calls in flight share one connection (as <c>h2load -c 1</c>) and 100,000 spread over as many as the limit asks.
/// A connection leaves the pool when it breaks, the server sends GOAWAY, or its stream ids run out; the next call
/// that finds no place opens a new one.
/// </summary>
/// <param name="streamReceiveWindow">The receive window its connections advertise per stream (<see cref="Http2Limits.StreamReceiveWindow"/>).</param>
/// <param name="connectTimeout">The longest a connection's setup may take (<see cref="CallTimeouts.ConnectTimeout"/>).</param>
/// <param name="logger">Where its connections' events go (<see cref="Http2Connection"/>'s Log part); none when null.</param>
/// <param name="tls">Each connection's TLS handshake for an https:// target; null for plain text.</param>
internal sealed class Http2ConnectionPool(
    EndPoint endPoint, long streamBudget, int streamReceiveWindow, TimeSpan connectTimeout, ILogger? logger = null, SslClientAuthenticationOptions? tls = null) : IDisposable
{
    /// <summary>Client stream ids are odd and below 2^31: about 2^30 streams per connection, with a margin.</summary>
    public const long StreamIdBudget = (1L << 30) - 1024;

    private readonly Lock _lock = new();
    private Http2Connection[] _connections = [];
    private bool _disposed;

    /// <summary>Where the connections' events go.</summary>
    public ILogger Logger { get; } = logger ?? NullLogger.Instance;

    /// <summary>One line a second at Warning for each kind of connection event a server may repeat on every connection.</summary>
    public LogThrottle GoAwayLog { get; } = new();

    public LogThrottle ProtocolErrorLog { get; } = new();

    public LogThrottle ConnectFailureLog { get; } = new();

    /// <summary>The connections open or opening (tests).</summary>
    internal int Count => Volatile.Read(ref _connections).Length;

    /// <summary>A connection with a place reserved for one call.</summary>
    public Http2Connection? Rent()
    {
        foreach (var connection in Volatile.Read(ref _connections))
        {
            if (connection.TryReserve())
            {
                return connection;
            }
        }

        lock (_lock)
        {
            if (_disposed)
            {
                return null;
            }

            foreach (var connection in _connections)
            {
                if (connection.TryReserve())
                {
                    return connection;
                }
            }

            var fresh = new Http2Connection(this, endPoint, streamBudget, streamReceiveWindow, connectTimeout, tls);
            fresh.TryReserve();
            _connections = [.. _connections, fresh];
            fresh.Open();
            return fresh;
        }
    }

    public void Remove(Http2Connection connection)
    {
        lock (_lock)
        {
            if (Array.IndexOf(_connections, connection) >= 0)
            {
                _connections = [.. _connections.Where(c => c != connection)];
            }
        }
    }

    public void Dispose()
    {
        Http2Connection[] connections;
        lock (_lock)
        {
            _disposed = true;
            connections = _connections;
            _connections = [];
        }

        foreach (var connection in connections)
        {
            connection.Fail(new Status(StatusCode.Cancelled, "The client was disposed."));
        }
    }
}
