using System.Buffers.Binary;
using System.Net.Sockets;

namespace Harness.LoadTests.Clients.Grpc.Http2;

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
                var read = _tls is { } tls
                    ? await tls.ReadAsync(buffer.AsMemory(end)).ConfigureAwait(false)
                    : await _socket.ReceiveAsync(buffer.AsMemory(end), SocketFlags.None).ConfigureAwait(false);
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
