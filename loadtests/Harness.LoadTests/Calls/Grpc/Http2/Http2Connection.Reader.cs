using System.Buffers.Binary;
using System.Net.Sockets;
using Grpc.Core;

namespace Harness.LoadTests.Calls.Grpc.Http2;

/// <summary>
/// The reader loop: frames parsed from one large buffer, calls completed as their trailers arrive. Each frame is checked
/// against HTTP/2's rules and the connection's bounds (<see cref="Http2Limits"/>) as it is handled; a breach ends the
/// connection with a GOAWAY naming the error (<see cref="Abort"/>).
/// </summary>
internal sealed partial class Http2Connection
{
    // Many frames per receive; at least one whole frame of the size the runner allows (16 KB) fits.
    private const int ReadBufferSize = 64 * 1024;

    private readonly HpackDecoder _hpack = new();
    private byte[] _headerBlock = new byte[1024];
    private int _headerBlockLength;
    private int _headerStreamId; // the stream whose header block CONTINUATION frames extend, else 0
    private int _continuations;  // CONTINUATION frames of that block
    private bool _headerEndStream;
    private int _receivedUnacknowledged; // DATA received since the last connection WINDOW_UPDATE
    private int _queuedAcks;             // PING and SETTINGS ACKs queued and not yet in the writer's buffer
    private int _closedStreamResets;     // RST_STREAMs for streams no longer open

    private async Task ReadLoopAsync()
    {
        var buffer = GC.AllocateUninitializedArray<byte>(ReadBufferSize);
        int start = 0, end = 0;
        try
        {
            while (true)
            {
                var read = await _socket.ReceiveAsync(buffer.AsMemory(end), SocketFlags.None).ConfigureAwait(false);
                if (read == 0)
                {
                    throw GrpcStatuses.ConnectionClosed();
                }

                end += read;
                while (end - start >= Http2Frames.HeaderLength)
                {
                    var length = (buffer[start] << 16) | (buffer[start + 1] << 8) | buffer[start + 2];
                    if (length > Http2Frames.DefaultMaxFrameSize)
                    {
                        throw new Http2ProtocolException($"a frame of {length} bytes, above the {Http2Frames.DefaultMaxFrameSize} allowed", Http2Frames.FrameSizeError);
                    }

                    if (end - start < Http2Frames.HeaderLength + length)
                    {
                        break;
                    }

                    OnFrame(buffer.AsSpan(start, Http2Frames.HeaderLength + length));
                    start += Http2Frames.HeaderLength + length;
                }

                // What is left is less than a frame: moved to the front, so the next receive has the rest of the buffer.
                buffer.AsSpan(start, end - start).CopyTo(buffer);
                end -= start;
                start = 0;
                if (_receivedUnacknowledged >= Http2Frames.ReceiveWindow / 2)
                {
                    _writes.Writer.TryWrite(Http2Frames.WindowUpdateFrame(0, _receivedUnacknowledged));
                    _receivedUnacknowledged = 0;
                }
            }
        }
        catch (Http2ProtocolException ex)
        {
            Abort(ex.ErrorCode, ex.Message);
        }
        catch (HpackException ex)
        {
            Abort(Http2Frames.CompressionError, ex.Message);
        }
        catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException)
        {
            Fail(GrpcStatuses.ForConnection(ex));
        }
        catch (Exception ex)
        {
            // Whatever it is, the calls fail and none hangs.
            Fail(Unexpected(ex));
        }
    }

    private void OnFrame(ReadOnlySpan<byte> frame)
    {
        var type = frame[3];
        var flags = frame[4];
        var streamId = BinaryPrimitives.ReadInt32BigEndian(frame[5..]) & int.MaxValue;
        var payload = frame[Http2Frames.HeaderLength..];
        if (_headerStreamId != 0 && type != Http2Frames.Continuation)
        {
            throw new Http2ProtocolException("a header block interrupted by another frame");
        }

        switch (type)
        {
            case Http2Frames.Data:
                OnData(payload, flags, streamId);
                break;
            case Http2Frames.Headers:
                if (streamId == 0)
                {
                    throw new Http2ProtocolException("HEADERS on stream 0");
                }

                var fragment = Unpad(payload, flags);
                if ((flags & Http2Frames.PriorityFlag) != 0)
                {
                    fragment = fragment.Length >= 5 ? fragment[5..] : throw new Http2ProtocolException("a HEADERS frame too short for its priority");
                }

                _headerEndStream = (flags & Http2Frames.EndStream) != 0;
                _continuations = 0;
                AppendHeaderBlock(fragment, streamId, (flags & Http2Frames.EndHeaders) != 0);
                break;
            case Http2Frames.Continuation:
                if (streamId != _headerStreamId || streamId == 0)
                {
                    throw new Http2ProtocolException("a CONTINUATION frame out of place");
                }

                if (++_continuations > Http2Limits.MaxContinuations)
                {
                    throw new Http2ProtocolException($"more than {Http2Limits.MaxContinuations} CONTINUATION frames in one header block", Http2Frames.EnhanceYourCalm);
                }

                AppendHeaderBlock(payload, streamId, (flags & Http2Frames.EndHeaders) != 0);
                break;
            case Http2Frames.RstStream:
                Expect(payload, 4, streamId, onStream: true);
                OnReset(streamId, BinaryPrimitives.ReadUInt32BigEndian(payload));
                break;
            case Http2Frames.Settings:
                Expect(payload, (flags & Http2Frames.Ack) != 0 ? 0 : payload.Length - (payload.Length % 6), streamId, onStream: false);
                if ((flags & Http2Frames.Ack) != 0)
                {
                    _hpack.OnSettingsAcknowledged();
                }
                else
                {
                    ApplySettings(payload);
                }

                break;
            case Http2Frames.Ping:
                Expect(payload, 8, streamId, onStream: false);
                if ((flags & Http2Frames.Ack) == 0)
                {
                    QueueAck(Http2Frames.PingAck(payload));
                }

                break;
            case Http2Frames.GoAway:
                Expect(payload, Math.Max(8, payload.Length), streamId, onStream: false);
                OnGoAway(BinaryPrimitives.ReadInt32BigEndian(payload) & int.MaxValue, BinaryPrimitives.ReadUInt32BigEndian(payload[4..]));
                break;
            case Http2Frames.WindowUpdate:
                Expect(payload, 4, streamId, onStream: streamId != 0);
                OnWindowUpdate(streamId, BinaryPrimitives.ReadInt32BigEndian(payload) & int.MaxValue);
                break;
            case Http2Frames.PushPromise:
                throw new Http2ProtocolException("PUSH_PROMISE, though push was disabled");
            default:
                break; // PRIORITY and unknown frame types are ignored (RFC 9113 4.1, 5.5)
        }
    }

    /// <summary>A frame's payload is <paramref name="length"/> bytes long, and it is on a stream (or on the connection, stream 0) as its type requires.</summary>
    private static void Expect(ReadOnlySpan<byte> payload, int length, int streamId, bool onStream)
    {
        if (payload.Length != length)
        {
            throw new Http2ProtocolException($"a frame of {payload.Length} bytes where its type takes {length}", Http2Frames.FrameSizeError);
        }

        if ((streamId != 0) != onStream)
        {
            throw new Http2ProtocolException(onStream ? "a stream's frame on stream 0" : $"a connection's frame on stream {streamId}");
        }
    }

    private void OnData(ReadOnlySpan<byte> payload, byte flags, int streamId)
    {
        if (streamId == 0)
        {
            throw new Http2ProtocolException("DATA on stream 0");
        }

        // Padding counts against the windows too (RFC 9113 6.9.1).
        _receivedUnacknowledged += payload.Length;
        if (_receivedUnacknowledged > Http2Frames.ReceiveWindow)
        {
            throw new Http2ProtocolException($"DATA past the connection's receive window of {Http2Frames.ReceiveWindow} bytes", Http2Frames.FlowControlError);
        }

        var data = Unpad(payload, flags);
        if (Find(streamId) is { } stream)
        {
            stream.Received += payload.Length;
            if (stream.Received > _streamReceiveWindow)
            {
                throw new Http2ProtocolException($"DATA past stream {streamId}'s receive window of {_streamReceiveWindow} bytes", Http2Frames.FlowControlError);
            }

            stream.OnData(data, (flags & Http2Frames.EndStream) != 0);
        }
    }

    private void OnReset(int streamId, uint errorCode)
    {
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

    private void AppendHeaderBlock(ReadOnlySpan<byte> fragment, int streamId, bool endHeaders)
    {
        if (endHeaders && _headerStreamId == 0)
        {
            OnHeaderBlock(fragment, streamId); // the usual case: one frame, decoded in place
            return;
        }

        var length = _headerBlockLength + fragment.Length;
        if (length > Http2Limits.MaxHeaderBlockSize)
        {
            throw new Http2ProtocolException($"a header block of more than {Http2Limits.MaxHeaderBlockSize} bytes", Http2Frames.EnhanceYourCalm);
        }

        if (length > _headerBlock.Length)
        {
            Array.Resize(ref _headerBlock, Math.Min(Http2Limits.MaxHeaderBlockSize, Math.Max(_headerBlock.Length * 2, length)));
        }

        fragment.CopyTo(_headerBlock.AsSpan(_headerBlockLength));
        _headerBlockLength += fragment.Length;
        _headerStreamId = streamId;
        if (endHeaders)
        {
            var total = _headerBlockLength;
            _headerStreamId = 0;
            _headerBlockLength = 0;
            OnHeaderBlock(_headerBlock.AsSpan(0, total), streamId);
        }
    }

    private void OnHeaderBlock(ReadOnlySpan<byte> block, int streamId)
    {
        // Decoded even for a stream already finished, so the dynamic table stays in step with the server's.
        var stream = Find(streamId);
        if (_hpack.Decode(block, stream, Http2Limits.MaxHeaderListSize))
        {
            stream?.OnHeadersEnd(_headerEndStream);
        }
        else
        {
            stream?.Fail(GrpcStatuses.HeadersTooLarge, reset: true);
        }
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

    private Http2Stream? Find(int streamId)
    {
        lock (_sync)
        {
            return _streams.GetValueOrDefault(streamId);
        }
    }

    private static ReadOnlySpan<byte> Unpad(ReadOnlySpan<byte> payload, byte flags)
    {
        if ((flags & Http2Frames.Padded) == 0)
        {
            return payload;
        }

        var padding = payload.IsEmpty ? int.MaxValue : payload[0];
        return padding < payload.Length ? payload[1..^padding] : throw new Http2ProtocolException("padding longer than its frame");
    }
}

/// <summary>The server broke HTTP/2's rules or a bound: a connection error of <paramref name="errorCode"/>.</summary>
internal sealed class Http2ProtocolException(string message, uint errorCode = Http2Frames.ProtocolError) : Exception(message)
{
    public uint ErrorCode { get; } = errorCode;
}
