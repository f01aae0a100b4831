using System.Net;
using System.Net.Sockets;

namespace Harness.LoadTests.Tests;

/// <summary>
/// A server that accepts every connection on 127.0.0.1 and reads whatever comes, but never writes a byte: the hung
/// service every client must give up on. Connections stay open until it is disposed.
/// </summary>
internal sealed class SilentServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Socket> _accepted = [];
    private readonly Task _accepting;
    private int _connections;

    public SilentServer()
    {
        _listener.Start();
        _accepting = AcceptAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public Uri Address => new($"http://127.0.0.1:{Port}");

    /// <summary>Connections accepted so far.</summary>
    public int Connections => Volatile.Read(ref _connections);

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        lock (_accepted)
        {
            foreach (var socket in _accepted)
            {
                socket.Dispose();
            }
        }

        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stop.Token);
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }

            Interlocked.Increment(ref _connections);
            lock (_accepted)
            {
                _accepted.Add(socket);
            }

            _ = DrainAsync(socket);
        }
    }

    // Reads and drops, so that the client's sends never block on a full window: silence, not back-pressure.
    private async Task DrainAsync(Socket socket)
    {
        var buffer = new byte[16 * 1024];
        try
        {
            while (await socket.ReceiveAsync(buffer, SocketFlags.None, _stop.Token) > 0)
            {
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // Stopped, or the client gave up and closed.
        }
    }
}
