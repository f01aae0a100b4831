using System.Buffers.Binary;
using System.Net.Sockets;
using Grpc.Core;

namespace Harness.LoadTests.Calls.Grpc.Http2;

/// <summary>The reader loop: frames parsed from one large buffer, calls completed as their trailers arrive.</summary>
internal sealed partial class Http2Connection
{
    // Many frames per receive; at least one whole frame of the size the runner allows (16 KB) fits.
    private const int ReadBufferSize = 64 * 1024;

    private readonly HpackDecoder _hpack = new();
    private byte[] _headerBlock = new byte[1024];
    private int _headerBlockLength;
    private int _headerStreamId; // the stream whose header block CONTINUATION frames extend, else 0
    private bool _headerEndStream;
    private int _receivedUnacknowledged;

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
                        throw new Http2ProtocolException($"a frame of {length} bytes, above the {Http2Frames.DefaultMaxFrameSize} allowed");
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
        catch (Exception ex) when (ex is HpackException or Http2ProtocolException)
        {
            _writes.Writer.TryWrite(Http2Frames.GoAwayFrame(0, ex is HpackException ? Http2Frames.CompressionError : Http2Frames.ProtocolError));
            Fail(new Status(StatusCode.Internal, $"Bad HTTP/2 response: {ex.Message}", ex));
        }
        catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException)
        {
            Fail(GrpcStatuses.ForConnection(ex));
        }
        catch (Exception ex)
        {
            // A frame shorter than its type needs (RST_STREAM, WINDOW_UPDATE, GOAWAY...) ends here too: the calls fail, none hangs.
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
                _receivedUnacknowledged += payload.Length;
                var data = Unpad(payload, flags);
                if (Find(streamId) is { } stream)
                {
                    var update = stream.OnData(data, payload.Length, (flags & Http2Frames.EndStream) != 0);
                    if (update > 0)
                    {
                        _writes.Writer.TryWrite(Http2Frames.WindowUpdateFrame(streamId, update));
                    }
                }

                break;
            case Http2Frames.Headers:
                var fragment = Unpad(payload, flags);
                if ((flags & Http2Frames.PriorityFlag) != 0)
                {
                    fragment = fragment.Length >= 5 ? fragment[5..] : throw new Http2ProtocolException("a HEADERS frame too short for its priority");
                }

                _headerEndStream = (flags & Http2Frames.EndStream) != 0;
                AppendHeaderBlock(fragment, streamId, (flags & Http2Frames.EndHeaders) != 0);
                break;
            case Http2Frames.Continuation:
                if (streamId != _headerStreamId || streamId == 0)
                {
                    throw new Http2ProtocolException("a CONTINUATION frame out of place");
                }

                AppendHeaderBlock(payload, streamId, (flags & Http2Frames.EndHeaders) != 0);
                break;
            case Http2Frames.RstStream:
                Find(streamId)?.Fail(GrpcStatuses.ForReset(BinaryPrimitives.ReadUInt32BigEndian(payload)), reset: false);
                break;
            case Http2Frames.Settings:
                if ((flags & Http2Frames.Ack) == 0)
                {
                    ApplySettings(payload);
                }

                break;
            case Http2Frames.Ping:
                if ((flags & Http2Frames.Ack) == 0)
                {
                    _writes.Writer.TryWrite(Http2Frames.PingAck(payload));
                }

                break;
            case Http2Frames.GoAway:
                OnGoAway(BinaryPrimitives.ReadInt32BigEndian(payload) & int.MaxValue, BinaryPrimitives.ReadUInt32BigEndian(payload[4..]));
                break;
            case Http2Frames.WindowUpdate:
                var increment = BinaryPrimitives.ReadInt32BigEndian(payload) & int.MaxValue;
                if (streamId == 0)
                {
                    Interlocked.Add(ref _connectionSendWindow, increment);
                }
                else if (Find(streamId) is { } updated)
                {
                    Interlocked.Add(ref updated.SendWindow, increment);
                }

                WakeWriter();
                break;
            case Http2Frames.PushPromise:
                throw new Http2ProtocolException("PUSH_PROMISE, though push was disabled");
            default:
                break; // PRIORITY and unknown frame types are ignored (RFC 9113 4.1, 5.5)
        }
    }

    private void AppendHeaderBlock(ReadOnlySpan<byte> fragment, int streamId, bool endHeaders)
    {
        if (endHeaders && _headerStreamId == 0)
        {
            OnHeaderBlock(fragment, streamId); // the usual case: one frame, decoded in place
            return;
        }

        if (_headerBlockLength + fragment.Length > _headerBlock.Length)
        {
            Array.Resize(ref _headerBlock, Math.Max(_headerBlock.Length * 2, _headerBlockLength + fragment.Length));
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
        _hpack.Decode(block, stream);
        stream?.OnHeadersEnd(_headerEndStream);
    }

    private void ApplySettings(ReadOnlySpan<byte> payload)
    {
        for (; payload.Length >= 6; payload = payload[6..])
        {
            var value = BinaryPrimitives.ReadUInt32BigEndian(payload[2..]);
            switch (BinaryPrimitives.ReadUInt16BigEndian(payload))
            {
                case Http2Frames.MaxConcurrentStreams:
                    _maxConcurrent = (int)Math.Min(value, int.MaxValue);
                    break;
                case Http2Frames.InitialWindowSize:
                    lock (_sync)
                    {
                        // A change applies to every open stream's window (RFC 9113 6.9.2).
                        var delta = (int)value - _peerInitialWindow;
                        _peerInitialWindow = (int)value;
                        foreach (var stream in _streams.Values)
                        {
                            Interlocked.Add(ref stream.SendWindow, delta);
                        }
                    }

                    break;
                case Http2Frames.MaxFrameSize:
                    _peerMaxFrameSize = (int)Math.Clamp(value, Http2Frames.DefaultMaxFrameSize, 16_777_215);
                    break;
            }
        }

        _writes.Writer.TryWrite(Http2Frames.SettingsAck());
        WakeWriter();
        _ready.TrySetResult();
    }

    /// <summary>
    /// The server takes no new streams: new calls go to another connection, the streams it will not process (above
    /// <paramref name="lastStreamId"/>) fail as a lost connection, and the others finish here.
    /// </summary>
    private void OnGoAway(int lastStreamId, uint errorCode)
    {
        _goingAway = true;
        _draining = true;
        _pool.Remove(this);
        List<Http2Stream> refused;
        lock (_sync)
        {
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

/// <summary>The server broke HTTP/2's rules: a connection error.</summary>
internal sealed class Http2ProtocolException(string message) : Exception(message);
