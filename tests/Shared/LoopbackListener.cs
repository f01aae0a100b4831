using System.Net;
using System.Net.Sockets;

namespace Harness.Tests.Shared;

/// <summary>
/// The accept loop the tests' raw TCP servers share: a listener on 127.0.0.1 at a free port that hands each accepted
/// socket to the server's handler and counts the connections. Disposing it stops accepting, closes every accepted
/// socket and waits a bounded time for the handlers, so a test's server never outlives its test.
/// </summary>
internal sealed class LoopbackListener : IAsyncDisposable
{
    // A handler that ignores both the stop and the closed socket must not hold a test forever.
    private static readonly TimeSpan HandlersLimit = TimeSpan.FromSeconds(10);

    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Func<Socket, int, CancellationToken, Task> _serve;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Socket> _sockets = [];
    private readonly List<Task> _handlers = [];
    private readonly Task _accepting;
    private int _accepted;

    /// <param name="serve">Serves one connection: its socket, its number from 1 in the order accepted, and the listener's stop.</param>
    /// <param name="backlog">Connections the OS queues before they are accepted (a client opening many at once).</param>
    public LoopbackListener(Func<Socket, int, CancellationToken, Task> serve, int backlog = 512)
    {
        _serve = serve;
        _listener.Start(backlog);
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _accepting = AcceptAsync();
    }

    public int Port { get; }

    /// <summary>Connections accepted so far.</summary>
    public int Accepted => Volatile.Read(ref _accepted);

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        Task[] handlers;
        lock (_sockets)
        {
            foreach (var socket in _sockets)
            {
                socket.Dispose();
            }

            handlers = [.. _handlers];
        }

        await Task.WhenAll(handlers).WaitAsync(HandlersLimit);
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

            var number = Interlocked.Increment(ref _accepted);
            lock (_sockets)
            {
                _sockets.Add(socket);
            }

            // Outside the lock: a handler runs on this thread until its first wait.
            var handler = _serve(socket, number, _stop.Token);
            lock (_sockets)
            {
                _handlers.Add(handler);
            }
        }
    }
}
