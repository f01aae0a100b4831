using System.Net;
using Grpc.Core;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// What a connection tells the log and the counters (<see cref="ClientEventSource"/>), as Grpc.Net.Client's
/// GrpcCall.Log does: its opening and closing, the server's GOAWAY and RST_STREAM, and the protocol errors it closes
/// for. Only these rare events pay for it: an interlocked increment, and a log call that returns at once below the
/// log's level. A flood stays readable: RST_STREAM is Debug, and GOAWAY, protocol errors and failed connects are
/// logged at their level once a second per client (<see cref="LogThrottle"/>), at Debug in between.
/// </summary>
internal sealed partial class Http2Connection
{
    private volatile bool _connected; // the socket connected: a failure before it is a failed connect, not a close

    private void TraceOpened()
    {
        _connected = true;
        ClientEventSource.Log.Http2ConnectionOpened();
        Log.ConnectionOpened(_pool.Logger, _endPoint);
    }

    /// <summary>The connection ended (once), for <paramref name="status"/>'s reason.</summary>
    private void TraceClosed(Status status)
    {
        if (_connected)
        {
            ClientEventSource.Log.Http2ConnectionClosed();
            Log.ConnectionClosed(_pool.Logger, _endPoint, status.StatusCode.ToString(), status.Detail);
        }
        else if (status.StatusCode != StatusCode.Cancelled)
        {
            ClientEventSource.Log.Http2ConnectFailed();
            Log.ConnectFailed(_pool.Logger, _pool.ConnectFailureLog.Level(LogLevel.Warning), _endPoint, status.Detail);
        }
    }

    private void TraceGoAway(int lastStreamId, uint errorCode)
    {
        ClientEventSource.Log.Http2GoAwayReceived();
        var level = _pool.GoAwayLog.Level(errorCode == Http2Frames.NoError ? LogLevel.Information : LogLevel.Warning);
        Log.GoAwayReceived(_pool.Logger, level, _endPoint, Http2Frames.ErrorName(errorCode), lastStreamId);
    }

    private void TraceReset(int streamId, uint errorCode)
    {
        ClientEventSource.Log.Http2ResetReceived();
        Log.ResetReceived(_pool.Logger, _endPoint, streamId, Http2Frames.ErrorName(errorCode));
    }

    private void TraceProtocolError(uint errorCode, string reason)
    {
        ClientEventSource.Log.Http2ProtocolError();
        Log.ProtocolError(_pool.Logger, _pool.ProtocolErrorLog.Level(LogLevel.Warning), _endPoint, Http2Frames.ErrorName(errorCode), reason);
    }

    /// <summary>The lean HTTP/2 client's events, ids 1001-1006 (docs/hostile-servers.md, "Tracing the clients").</summary>
    private static partial class Log
    {
        [LoggerMessage(EventId = 1001, Level = LogLevel.Debug, Message = "HTTP/2 connection to {EndPoint} opened")]
        public static partial void ConnectionOpened(ILogger logger, EndPoint endPoint);

        [LoggerMessage(EventId = 1002, Level = LogLevel.Debug, Message = "HTTP/2 connection to {EndPoint} closed: {StatusCode} {Reason}")]
        public static partial void ConnectionClosed(ILogger logger, EndPoint endPoint, string statusCode, string reason);

        [LoggerMessage(EventId = 1003, Message = "HTTP/2 connection to {EndPoint} failed to open: {Reason}")]
        public static partial void ConnectFailed(ILogger logger, LogLevel level, EndPoint endPoint, string reason);

        [LoggerMessage(EventId = 1004, Message = "HTTP/2 GOAWAY received from {EndPoint}: {ErrorCode}, last stream {LastStreamId}")]
        public static partial void GoAwayReceived(ILogger logger, LogLevel level, EndPoint endPoint, string errorCode, int lastStreamId);

        [LoggerMessage(EventId = 1005, Level = LogLevel.Debug, Message = "HTTP/2 RST_STREAM received from {EndPoint} on stream {StreamId}: {ErrorCode}")]
        public static partial void ResetReceived(ILogger logger, EndPoint endPoint, int streamId, string errorCode);

        [LoggerMessage(EventId = 1006, Message = "HTTP/2 connection to {EndPoint} closed by the runner with GOAWAY {ErrorCode}: {Reason}")]
        public static partial void ProtocolError(ILogger logger, LogLevel level, EndPoint endPoint, string errorCode, string reason);
    }
}
