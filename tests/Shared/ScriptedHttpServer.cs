using System.Net.Sockets;
using System.Text;

namespace Harness.Tests.Shared;

/// <summary>
/// A loopback TCP server that answers each request it reads with bytes a test wrote by hand, so that a client meets
/// exactly the framing under test (chunks, interim replies, a connection closed between calls, a reply cut short).
/// It counts the connections it accepted and keeps each request it read.
/// </summary>
internal sealed class ScriptedHttpServer : IAsyncDisposable
{
    private static readonly TimeSpan ReadLimit = TimeSpan.FromSeconds(10);

    private readonly Func<Exchange, Task> _answer;
    private readonly LoopbackListener _listener;

    /// <param name="answer">Writes the reply to one request; it may close the connection (<see cref="Exchange.Close"/>).</param>
    public ScriptedHttpServer(Func<Exchange, Task> answer)
    {
        _answer = answer;
        _listener = new LoopbackListener(ServeAsync);
        Address = new Uri($"http://127.0.0.1:{_listener.Port}/svc");
    }

    public Uri Address { get; }

    public int Accepted => _listener.Accepted;

    public List<string> Requests { get; } = [];

    public ValueTask DisposeAsync() => _listener.DisposeAsync();

    private async Task ServeAsync(Socket socket, int connection, CancellationToken stop)
    {
        using var _ = socket;
        try
        {
            for (var index = 1; !stop.IsCancellationRequested; index++)
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(stop);
                timeout.CancelAfter(ReadLimit);
                if (await ReadRequestAsync(socket, timeout.Token) is not { } request)
                {
                    return;
                }

                lock (Requests)
                {
                    Requests.Add(request);
                }

                var exchange = new Exchange(socket, connection, index, request);
                await _answer(exchange);
                if (exchange.Closed)
                {
                    return;
                }
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // The client went away, or the test ended.
        }
    }

    /// <summary>One request: its head and body as text; null when the client closed the connection first.</summary>
    private static async Task<string?> ReadRequestAsync(Socket socket, CancellationToken cancellationToken)
    {
        var buffer = new byte[64 * 1024];
        var filled = 0;
        while (true)
        {
            var text = Encoding.UTF8.GetString(buffer, 0, filled);
            var blank = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            if (blank >= 0)
            {
                var length = text[..blank].Split("\r\n").Where(l => l.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase))
                    .Select(l => int.Parse(l["Content-Length:".Length..].Trim(), System.Globalization.CultureInfo.InvariantCulture)).FirstOrDefault();
                if (filled >= blank + 4 + length)
                {
                    return text;
                }
            }

            var read = await socket.ReceiveAsync(buffer.AsMemory(filled), SocketFlags.None, cancellationToken);
            if (read == 0)
            {
                return null;
            }

            filled += read;
        }
    }

    /// <summary>One request as the answer sees it.</summary>
    internal sealed class Exchange(Socket socket, int connection, int index, string request)
    {
        /// <summary>Which connection, from 1, in the order they were accepted.</summary>
        public int Connection { get; } = connection;

        /// <summary>Which request on its connection, from 1.</summary>
        public int Index { get; } = index;

        public string Request { get; } = request;

        public bool Closed { get; private set; }

        /// <summary>Writes <paramref name="text"/> in pieces of <paramref name="piece"/> bytes, each sent alone.</summary>
        public async Task WriteAsync(string text, int piece = int.MaxValue)
        {
            var bytes = Encoding.UTF8.GetBytes(text);
            for (var at = 0; at < bytes.Length; at += piece)
            {
                await socket.SendAsync(bytes.AsMemory(at, Math.Min(piece, bytes.Length - at)), SocketFlags.None);
                if (piece < bytes.Length)
                {
                    await Task.Delay(1);
                }
            }
        }

        /// <summary>
        /// Writes <paramref name="text"/> again and again, at most <paramref name="times"/> times: a server that never
        /// ends its reply. Once the client has closed the connection a write fails, which ends the exchange.
        /// </summary>
        public async Task RepeatAsync(string text, int times, TimeSpan pause = default)
        {
            var bytes = Encoding.UTF8.GetBytes(text);
            for (var i = 0; i < times; i++)
            {
                await socket.SendAsync(bytes, SocketFlags.None);
                if (pause > TimeSpan.Zero)
                {
                    await Task.Delay(pause);
                }
            }
        }

        /// <summary>Closes the connection (a FIN: the client reads its end).</summary>
        public void Close()
        {
            Closed = true;
            socket.Shutdown(SocketShutdown.Both);
        }
    }
}
