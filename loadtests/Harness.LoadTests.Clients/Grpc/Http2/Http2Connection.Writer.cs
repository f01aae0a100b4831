using System.Net.Sockets;
using Grpc.Core;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// The writer loop: one socket send for everything queued since the last one. The send buffer grows to the largest
/// batch, at most <see cref="MaxItemsPerSend"/> items (control frames of a few bytes, the runner's own requests).
/// </summary>
internal sealed partial class Http2Connection
{
    // Bounds one send's batch, so that a burst of thousands of calls does not grow the buffer without end.
    private const int MaxItemsPerSend = 1024;

    // Streams waiting for a place under the server's stream limit, and opened streams waiting for send window: the
    // writer's alone.
    private readonly Queue<Http2Stream> _unopened = new();
    private readonly List<Http2Stream> _windowBlocked = [];
    private byte[] _out = new byte[16 * 1024];
    private int _outLength;
    private int _nextStreamId = 1;

    private async Task WriteLoopAsync()
    {
        var reader = _writes.Reader;
        try
        {
            await SendAllAsync(Http2Frames.ConnectionStart(_streamReceiveWindow)).ConfigureAwait(false);
            while (await reader.WaitToReadAsync().ConfigureAwait(false) && _failed is null)
            {
                for (var items = 0; items < MaxItemsPerSend && reader.TryRead(out var item); items++)
                {
                    switch (item)
                    {
                        case byte[] frame:
                            Append(frame);
                            if (frame[3] is Http2Frames.Ping or Http2Frames.Settings)
                            {
                                Interlocked.Decrement(ref _queuedAcks); // the only PINGs and SETTINGS the runner queues are acknowledgements
                            }

                            break;
                        case Http2Stream stream:
                            _unopened.Enqueue(stream);
                            break;
                    }
                }

                _writerWaiting = true; // before looking at the limits, so a release after the look wakes us (Release)
                OpenStreams();
                _writerWaiting = _unopened.Count > 0 || _windowBlocked.Count > 0;
                if (_outLength > 0)
                {
                    await SendAllAsync(_out.AsMemory(0, _outLength)).ConfigureAwait(false);
                    _outLength = 0;
                }
            }

            if (_goAway is { } goAway)
            {
                // The runner closes for the server's error: it is told why, then sees the connection end.
                await SendAllAsync(goAway).ConfigureAwait(false);
                _socket.Shutdown(SocketShutdown.Send);
            }
        }
        catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException)
        {
            Fail(GrpcStatuses.ForConnection(ex));
        }
        catch (Exception ex)
        {
            Fail(Unexpected(ex));
        }
        finally
        {
            // Completed here too, so that no call is queued after the queue is emptied below (Fail completes it just
            // after it marks the connection failed, which ends the loop above).
            _writes.Writer.TryComplete();
            var status = Failure ?? Closed();
            foreach (var stream in _unopened.Concat(_windowBlocked))
            {
                stream.Fail(status, reset: false);
            }

            while (reader.TryRead(out var item))
            {
                (item as Http2Stream)?.Fail(status, reset: false);
            }
        }
    }

    private void OpenStreams()
    {
        _windowBlocked.RemoveAll(s => s.IsDone || SendData(s));
        var now = Environment.TickCount64;
        while (_unopened.TryPeek(out var stream))
        {
            if (stream.IsDone)
            {
                _unopened.Dequeue(); // cancelled before it was sent
                continue;
            }

            if (stream.IsPastDeadline(now))
            {
                _unopened.Dequeue(); // its deadline passed while it waited for a stream of the server's limit
                stream.ExpireDeadline();
                continue;
            }

            // Decided under the lock that Fail and GOAWAY take too, so that a stream is either registered before they
            // look at the open streams (and failed by them) or refused here: none is left open on a dead connection.
            Status? refused = null;
            lock (_sync)
            {
                if (_failed is { } failed)
                {
                    refused = failed.Value;
                }
                else if (_goingAway)
                {
                    // The server takes no new streams; the pool has another connection for the next calls.
                    refused = Closed();
                }
                else if (_open >= _maxConcurrent)
                {
                    return; // a release wakes the writer
                }
                else if (stream.IsDone)
                {
                    continue; // dequeued next round
                }
                else
                {
                    stream.Id = _nextStreamId;
                    _nextStreamId += 2;
                    stream.SendWindow = _peerInitialWindow;
                    _streams.Add(stream.Id, stream);
                    _open++;
                }
            }

            _unopened.Dequeue();
            if (refused is { } status)
            {
                stream.Fail(status, reset: false);
                continue;
            }

            var block = stream.HeaderBlock;
            var frame = Reserve(Http2Frames.HeaderLength + block.Length);
            Http2Frames.WriteHeader(frame, block.Length, Http2Frames.Headers, Http2Frames.EndHeaders, stream.Id);
            block.CopyTo(frame[Http2Frames.HeaderLength..]);
            if (!SendData(stream))
            {
                _windowBlocked.Add(stream);
            }
        }
    }

    /// <summary>As much of the stream's message as the windows allow; true when all of it is out.</summary>
    private bool SendData(Http2Stream stream)
    {
        var body = stream.Body;
        while (stream.BodySent < body.Length)
        {
            var size = Math.Min(Math.Min(body.Length - stream.BodySent, _peerMaxFrameSize),
                Math.Min(Volatile.Read(ref _connectionSendWindow), Volatile.Read(ref stream.SendWindow)));
            if (size <= 0)
            {
                return false; // a WINDOW_UPDATE wakes the writer
            }

            Interlocked.Add(ref _connectionSendWindow, -size);
            Interlocked.Add(ref stream.SendWindow, -size);
            var last = stream.BodySent + size == body.Length;
            var frame = Reserve(Http2Frames.HeaderLength + size);
            Http2Frames.WriteHeader(frame, size, Http2Frames.Data, last ? Http2Frames.EndStream : (byte)0, stream.Id);
            body.AsSpan(stream.BodySent, size).CopyTo(frame[Http2Frames.HeaderLength..]);
            stream.BodySent += size;
        }

        return true;
    }

    /// <summary>A queued frame into the send buffer (internal for tests).</summary>
    internal void Append(byte[] frame) => frame.CopyTo(Reserve(frame.Length));

    /// <summary>
    /// Room for <paramref name="length"/> more bytes at the end of the send buffer, grown first if need be: the span
    /// is taken from the buffer after it grew, never before.
    /// </summary>
    private Span<byte> Reserve(int length)
    {
        if (_outLength + length > _out.Length)
        {
            Array.Resize(ref _out, Math.Max(_out.Length * 2, _outLength + length));
        }

        var at = _outLength;
        _outLength += length;
        return _out.AsSpan(at, length);
    }

    /// <summary>The bytes written into the send buffer and not yet sent (tests).</summary>
    internal ReadOnlySpan<byte> Unsent => _out.AsSpan(0, _outLength);

    private async ValueTask SendAllAsync(ReadOnlyMemory<byte> data)
    {
        if (_tls is { } tls)
        {
            await tls.WriteAsync(data).ConfigureAwait(false);
            return;
        }

        while (!data.IsEmpty)
        {
            var sent = await _socket.SendAsync(data, SocketFlags.None).ConfigureAwait(false);
            data = data[sent..];
        }
    }

    /// <summary>Wakes the writer if it holds streams back (a window grew, the stream limit rose).</summary>
    private void WakeWriter()
    {
        if (_writerWaiting)
        {
            _writes.Writer.TryWrite(Wake);
        }
    }

    private static Status Closed() => GrpcStatuses.ForConnection(GrpcStatuses.ConnectionClosed());
}
