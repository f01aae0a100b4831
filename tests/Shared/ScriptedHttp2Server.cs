using System.Buffers.Binary;
using System.Net.Sockets;
using System.Threading.Channels;

namespace Harness.Tests.Shared;

/// <summary>
/// A loopback TCP server that speaks just enough HTTP/2 for a test to play a misbehaving server: it reads the client's
/// preface and frames in the background (the streams it opens, its GOAWAY, RST_STREAMs and PING ACKs), and runs a
/// script per connection that writes whatever frames the test chose (<see cref="H2"/>). It counts the connections it
/// accepted and the bytes each script managed to send.
/// </summary>
internal sealed class ScriptedHttp2Server : IAsyncDisposable
{
    private readonly Func<ServerConnection, Task> _script;
    private readonly List<ServerConnection> _connections = [];
    private readonly LoopbackListener _listener;

    /// <param name="script">Plays one connection, after the client's preface has been read.</param>
    public ScriptedHttp2Server(Func<ServerConnection, Task> script)
    {
        _script = script;
        _listener = new LoopbackListener((socket, _, stop) =>
        {
            var connection = new ServerConnection(socket, stop);
            lock (_connections)
            {
                _connections.Add(connection);
            }

            return ServeAsync(connection);
        });
        Address = new Uri($"http://127.0.0.1:{_listener.Port}");
    }

    public Uri Address { get; }

    /// <summary>Connections accepted so far, each one that <see cref="Connection"/> can already hand out.</summary>
    public int Accepted
    {
        get
        {
            lock (_connections)
            {
                return _connections.Count;
            }
        }
    }

    public ServerConnection Connection(int index)
    {
        lock (_connections)
        {
            return _connections[index];
        }
    }

    public ValueTask DisposeAsync() => _listener.DisposeAsync();

    private async Task ServeAsync(ServerConnection connection)
    {
        try
        {
            await connection.ReadPrefaceAsync();
            _ = connection.ReadFramesAsync();
            await _script(connection);
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException or IOException)
        {
            // The client closed the connection, or the test ended.
        }
    }

    /// <summary>One accepted connection as a script sees it.</summary>
    internal sealed class ServerConnection(Socket socket, CancellationToken stop)
    {
        private readonly Channel<int> _requests = Channel.CreateUnbounded<int>();
        private readonly TaskCompletionSource<uint> _goAway = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private long _sent;
        private int _pingAcks;
        private long _windowUpdates;
        private volatile bool _paused;

        public Socket Socket { get; } = socket;

        /// <summary>Bytes the script managed to hand to the socket.</summary>
        public long Sent => Interlocked.Read(ref _sent);

        public int PingAcks => Volatile.Read(ref _pingAcks);

        /// <summary>The connection-level WINDOW_UPDATE increments the client sent, summed.</summary>
        public long ConnectionWindowUpdates => Interlocked.Read(ref _windowUpdates);

        /// <summary>The RST_STREAMs the client sent: stream id and error code.</summary>
        public List<(int Stream, uint Code)> Resets { get; } = [];

        /// <summary>The error code of the client's GOAWAY.</summary>
        public Task<uint> GoAway => _goAway.Task;

        /// <summary>Completes when the client closed its end (or the connection broke).</summary>
        public Task Closed => _closed.Task;

        /// <summary>Keeps the connection open until the client closes it or the test ends.</summary>
        public async Task HoldAsync() => await Task.WhenAny(Closed, Task.Delay(Timeout.Infinite, stop));

        /// <summary>Stops reading the client's frames, as a server that does not read: what the client sends piles up.</summary>
        public void PauseReading() => _paused = true;

        /// <summary>The id of the next stream the client opens (its HEADERS).</summary>
        public async Task<int> NextRequestAsync() => await _requests.Reader.ReadAsync(stop);

        public async Task SendAsync(params byte[][] frames)
        {
            foreach (var frame in frames)
            {
                await Socket.SendAsync(frame, SocketFlags.None, stop);
                Interlocked.Add(ref _sent, frame.Length);
            }
        }

        /// <summary>
        /// Sends <paramref name="unit"/> again and again, at most <paramref name="limit"/> bytes, until the client
        /// closes the connection; returns the bytes sent.
        /// </summary>
        public async Task<long> FloodAsync(byte[] unit, long limit)
        {
            var chunk = new byte[Math.Max(1, 64 * 1024 / unit.Length) * unit.Length];
            for (var at = 0; at < chunk.Length; at += unit.Length)
            {
                unit.CopyTo(chunk, at);
            }

            try
            {
                while (Sent < limit && !Closed.IsCompleted)
                {
                    await SendAsync(chunk);
                }
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
                // The client closed: the point of the flood.
            }

            return Sent;
        }

        internal async Task ReadPrefaceAsync()
        {
            var preface = new byte[24];
            await ReadExactlyAsync(preface);
        }

        internal async Task ReadFramesAsync()
        {
            var header = new byte[9];
            try
            {
                while (true)
                {
                    while (_paused)
                    {
                        await Task.Delay(10, stop);
                    }

                    await ReadExactlyAsync(header);
                    var length = (header[0] << 16) | (header[1] << 8) | header[2];
                    var payload = new byte[length];
                    await ReadExactlyAsync(payload);
                    var streamId = BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(5)) & int.MaxValue;
                    switch (header[3])
                    {
                        case H2.Headers:
                            _requests.Writer.TryWrite(streamId);
                            break;
                        case H2.RstStream:
                            lock (Resets)
                            {
                                Resets.Add((streamId, BinaryPrimitives.ReadUInt32BigEndian(payload)));
                            }

                            break;
                        case H2.Ping when (header[4] & 1) != 0:
                            Interlocked.Increment(ref _pingAcks);
                            break;
                        case H2.WindowUpdate when streamId == 0:
                            Interlocked.Add(ref _windowUpdates, BinaryPrimitives.ReadInt32BigEndian(payload));
                            break;
                        case H2.GoAway:
                            _goAway.TrySetResult(BinaryPrimitives.ReadUInt32BigEndian(payload.AsSpan(4)));
                            break;
                    }
                }
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException or EndOfStreamException)
            {
                _closed.TrySetResult();
            }
        }

        private async Task ReadExactlyAsync(byte[] buffer)
        {
            for (var filled = 0; filled < buffer.Length;)
            {
                var read = await Socket.ReceiveAsync(buffer.AsMemory(filled), SocketFlags.None, stop);
                if (read == 0)
                {
                    throw new EndOfStreamException();
                }

                filled += read;
            }
        }
    }
}

/// <summary>The frames and HPACK fields a scripted server writes (RFC 9113, RFC 7541), built by hand.</summary>
internal static class H2
{
    public const byte Data = 0x0, Headers = 0x1, RstStream = 0x3, Settings = 0x4, Ping = 0x6, GoAway = 0x7, WindowUpdate = 0x8, Continuation = 0x9;

    public const byte EndStream = 0x1, EndHeaders = 0x4;

    public static byte[] Frame(byte type, byte flags, int streamId, ReadOnlySpan<byte> payload)
    {
        var frame = new byte[9 + payload.Length];
        frame[0] = (byte)(payload.Length >> 16);
        frame[1] = (byte)(payload.Length >> 8);
        frame[2] = (byte)payload.Length;
        frame[3] = type;
        frame[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(5), streamId);
        payload.CopyTo(frame.AsSpan(9));
        return frame;
    }

    /// <summary>The server's SETTINGS: the given (id, value) pairs, none for the defaults.</summary>
    public static byte[] ServerSettings(params (ushort Id, uint Value)[] settings)
    {
        var payload = new byte[6 * settings.Length];
        for (var i = 0; i < settings.Length; i++)
        {
            BinaryPrimitives.WriteUInt16BigEndian(payload.AsSpan(6 * i), settings[i].Id);
            BinaryPrimitives.WriteUInt32BigEndian(payload.AsSpan((6 * i) + 2), settings[i].Value);
        }

        return Frame(Settings, 0, 0, payload);
    }

    public static byte[] SettingsAck() => Frame(Settings, 1, 0, []);

    public static byte[] PingFrame() => Frame(Ping, 0, 0, new byte[8]);

    public static byte[] HeadersFrame(int streamId, byte[] block, bool endStream = false, bool endHeaders = true) =>
        Frame(Headers, (byte)((endStream ? EndStream : 0) | (endHeaders ? EndHeaders : 0)), streamId, block);

    public static byte[] DataFrame(int streamId, ReadOnlySpan<byte> payload, bool endStream = false) =>
        Frame(Data, endStream ? EndStream : (byte)0, streamId, payload);

    /// <summary>A gRPC message: the 5-byte prefix (not compressed, the length given) and the bytes.</summary>
    public static byte[] Message(ReadOnlySpan<byte> message, uint? declaredLength = null)
    {
        var framed = new byte[5 + message.Length];
        BinaryPrimitives.WriteUInt32BigEndian(framed.AsSpan(1), declaredLength ?? (uint)message.Length);
        message.CopyTo(framed.AsSpan(5));
        return framed;
    }

    /// <summary>A response's headers: :status 200 (static index 8) and content-type application/grpc.</summary>
    public static byte[] ResponseHeaders() => [0x88, .. Literal("content-type", "application/grpc")];

    /// <summary>Trailers (or a trailers-only response's block) with the given grpc-status.</summary>
    public static byte[] Trailers(string grpcStatus) => Literal("grpc-status", grpcStatus);

    /// <summary>A literal field without indexing, new name, no Huffman (RFC 7541 6.2.2).</summary>
    public static byte[] Literal(string name, string value) => [0x00, .. String(name), .. String(value)];

    /// <summary>A literal field with incremental indexing, new name (RFC 7541 6.2.1): it enters the dynamic table.</summary>
    public static byte[] IndexedLiteral(string name, string value) => [0x40, .. String(name), .. String(value)];

    private static byte[] String(string text)
    {
        var bytes = System.Text.Encoding.ASCII.GetBytes(text);
        var length = new List<byte>();
        var value = bytes.Length;
        if (value < 127)
        {
            length.Add((byte)value);
        }
        else
        {
            length.Add(127);
            for (value -= 127; value >= 0x80; value >>= 7)
            {
                length.Add((byte)((value & 0x7F) | 0x80));
            }

            length.Add((byte)value);
        }

        return [.. length, .. bytes];
    }
}
