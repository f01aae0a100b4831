using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Http1;

/// <summary>
/// What the client tells the log and the counters (<see cref="ClientEventSource"/>): connections opened and closed,
/// connects that failed, and replies failed at a bound or not HTTP/1.x. Only these events pay for it (an interlocked
/// increment, and a log call that returns at once below the log's level); a server that fails every call at a bound
/// gets a Warning a second (<see cref="LogThrottle"/>), the others at Debug.
/// </summary>
internal sealed partial class Http1Client
{
    private readonly LogThrottle _pastBoundLog = new();
    private readonly LogThrottle _malformedLog = new();
    private readonly LogThrottle _connectFailureLog = new();

    private void TraceOpened()
    {
        ClientEventSource.Log.Http1ConnectionOpened();
        Log.ConnectionOpened(_logger, _endPoint);
    }

    private void TraceClosed(string reason)
    {
        ClientEventSource.Log.Http1ConnectionClosed();
        Log.ConnectionClosed(_logger, _endPoint, reason);
    }

    private void TraceConnectFailed(SocketException ex)
    {
        ClientEventSource.Log.Http1ConnectFailed();
        Log.ConnectFailed(_logger, _connectFailureLog.Level(LogLevel.Warning), _endPoint, ex.SocketErrorCode.ToString(), ex.Message);
    }

    /// <summary>An exchange failed: logged when the reply broke a bound or was not HTTP/1.x; a lost connection is its close's.</summary>
    private void TraceFailedReply(Exception ex)
    {
        switch (ex)
        {
            case HttpIOException { HttpRequestError: HttpRequestError.ConfigurationLimitExceeded }:
                ClientEventSource.Log.Http1ResponsePastBound();
                Log.ResponsePastBound(_logger, _pastBoundLog.Level(LogLevel.Warning), _endPoint, ex.Message);
                break;
            case HttpIOException { HttpRequestError: HttpRequestError.InvalidResponse }:
                ClientEventSource.Log.Http1MalformedResponse();
                Log.MalformedResponse(_logger, _malformedLog.Level(LogLevel.Warning), _endPoint, ex.Message);
                break;
        }
    }

    /// <summary>The HTTP/1.1 client's events, ids 2001-2005 (docs/hostile-servers.md, "Tracing the clients").</summary>
    private static partial class Log
    {
        [LoggerMessage(EventId = 2001, Level = LogLevel.Debug, Message = "HTTP/1.1 connection to {EndPoint} opened")]
        public static partial void ConnectionOpened(ILogger logger, EndPoint endPoint);

        [LoggerMessage(EventId = 2002, Level = LogLevel.Debug, Message = "HTTP/1.1 connection to {EndPoint} closed: {Reason}")]
        public static partial void ConnectionClosed(ILogger logger, EndPoint endPoint, string reason);

        [LoggerMessage(EventId = 2003, Message = "HTTP/1.1 connection to {EndPoint} failed to open: {SocketError} {Reason}")]
        public static partial void ConnectFailed(ILogger logger, LogLevel level, EndPoint endPoint, string socketError, string reason);

        [LoggerMessage(EventId = 2004, Message = "HTTP/1.1 reply from {EndPoint} past a bound, its connection closed: {Reason}")]
        public static partial void ResponsePastBound(ILogger logger, LogLevel level, EndPoint endPoint, string reason);

        [LoggerMessage(EventId = 2005, Message = "HTTP/1.1 reply from {EndPoint} is not HTTP/1.x, its connection closed: {Reason}")]
        public static partial void MalformedResponse(ILogger logger, LogLevel level, EndPoint endPoint, string reason);
    }
}
