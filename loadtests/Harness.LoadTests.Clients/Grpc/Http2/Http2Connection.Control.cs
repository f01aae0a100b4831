using System.Buffers.Binary;
using System.Net.Sockets;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// The server's control frames, as the reader loop meets them: SETTINGS, PING, RST_STREAM, WINDOW_UPDATE and GOAWAY,
/// each held to its bound (<see cref="Http2Limits"/>): acknowledgements the server provokes faster than it reads them,
/// resets of streams that are no longer open, send windows past 2^31-1.
/// </summary>
internal sealed partial class Http2Connection
{
    private void OnReset(int streamId, uint errorCode)
    {
        TraceReset(streamId, errorCode);
        Http2Stream? stream;
        bool idle;
        int opened;
        lock (_sync)
        {
            stream = _streams.GetValueOrDefault(streamId);
            idle = streamId >= _nextStreamId || streamId % 2 == 0;
            opened = _nextStreamId / 2;
        }

        if (stream is not null)
        {
            stream.Fail(GrpcStatuses.ForReset(errorCode), reset: false);
        }
        else if (idle)
        {
            throw new Http2ProtocolException($"RST_STREAM on stream {streamId}, which the runner never opened");
        }
        else if (++_closedStreamResets > opened + Http2Limits.MaxQueuedAcks)
        {
            // A server resets a stream at most once: more resets of closed streams than streams opened is a flood.
            throw new Http2ProtocolException($"{_closedStreamResets} RST_STREAMs of closed streams, for {opened} streams opened", Http2Frames.EnhanceYourCalm);
        }
    }

    private void OnWindowUpdate(int streamId, int increment)
    {
        if (increment == 0 && streamId == 0)
        {
            throw new Http2ProtocolException("a WINDOW_UPDATE of 0");
        }

        if (streamId == 0)
        {
            AddToWindow(ref _connectionSendWindow, increment);
        }
        else if (Find(streamId) is { } updated)
        {
            AddToWindow(ref updated.SendWindow, increment);
        }

        WakeWriter();
    }

    /// <summary>A send window grows; past 2^31-1 it is a FLOW_CONTROL_ERROR (RFC 9113 6.9.1). The writer only takes from it, so the check is safe.</summary>
    private static void AddToWindow(ref int window, int increment)
    {
        if (Volatile.Read(ref window) + (long)increment > int.MaxValue)
        {
            throw new Http2ProtocolException("a send window above 2^31-1", Http2Frames.FlowControlError);
        }

        Interlocked.Add(ref window, increment);
    }

    /// <summary>A PING or SETTINGS acknowledgement for the writer; more than a bounded number waiting is a flood.</summary>
    private void QueueAck(byte[] frame)
    {
        if (Interlocked.Increment(ref _queuedAcks) > Http2Limits.MaxQueuedAcks)
        {
            throw new Http2ProtocolException(
                $"more than {Http2Limits.MaxQueuedAcks} PING and SETTINGS acknowledgements waiting to be sent", Http2Frames.EnhanceYourCalm);
        }

        _writes.Writer.TryWrite(frame);
    }

    private void ApplySettings(ReadOnlySpan<byte> payload)
    {
        int? initialWindow = null;
        for (; payload.Length >= 6; payload = payload[6..])
        {
            var value = BinaryPrimitives.ReadUInt32BigEndian(payload[2..]);
            switch (BinaryPrimitives.ReadUInt16BigEndian(payload))
            {
                case Http2Frames.MaxConcurrentStreams:
                    _maxConcurrent = (int)Math.Min(value, int.MaxValue);
                    break;
                case Http2Frames.InitialWindowSize:
                    initialWindow = value <= int.MaxValue
                        ? (int)value
                        : throw new Http2ProtocolException($"SETTINGS_INITIAL_WINDOW_SIZE {value}, above 2^31-1", Http2Frames.FlowControlError);
                    break;
                case Http2Frames.MaxFrameSize:
                    _peerMaxFrameSize = (int)Math.Clamp(value, Http2Frames.DefaultMaxFrameSize, 16_777_215);
                    break;
            }
        }

        if (initialWindow is { } window)
        {
            // Once per frame however many times it is repeated: a change applies to every open stream's window (RFC 9113 6.9.2).
            lock (_sync)
            {
                var delta = window - _peerInitialWindow;
                _peerInitialWindow = window;
                foreach (var stream in _streams.Values)
                {
                    AddToWindow(ref stream.SendWindow, delta);
                }
            }
        }

        QueueAck(Http2Frames.SettingsAck());
        WakeWriter();
        _ready.TrySetResult();
    }

    /// <summary>
    /// The server takes no new streams: new calls go to another connection, the streams it will not process (above
    /// <paramref name="lastStreamId"/>) fail as a lost connection, and the others finish here.
    /// </summary>
    private void OnGoAway(int lastStreamId, uint errorCode)
    {
        TraceGoAway(lastStreamId, errorCode);
        _draining = true;
        _pool.Remove(this);
        List<Http2Stream> refused;
        lock (_sync)
        {
            // Under the lock the writer opens streams under, so that it opens none above lastStreamId after this look.
            _goingAway = true;
            refused = [.. _streams.Values.Where(s => s.Id > lastStreamId)];
        }

        var status = GrpcStatuses.ForConnection(new IOException(
            $"The server closed the HTTP/2 connection (GOAWAY {Http2Frames.ErrorName(errorCode)}, last stream {lastStreamId}).",
            new SocketException((int)SocketError.ConnectionReset)));
        foreach (var stream in refused)
        {
            stream.Fail(status, reset: false);
        }

        WakeWriter(); // the writer fails the calls it has not sent yet
        if (Volatile.Read(ref _reserved) == 0)
        {
            Fail(status);
        }
    }
}
