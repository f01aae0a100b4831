using System.Net.Sockets;

namespace Harness.Tests.Shared;

/// <summary>
/// A server that accepts every connection on 127.0.0.1 and reads whatever comes, but never writes a byte: the hung
/// service every client must give up on. Connections stay open until it is disposed.
/// </summary>
internal sealed class SilentServer : IAsyncDisposable
{
    private readonly LoopbackListener _listener = new(static (socket, _, stop) => DrainAsync(socket, stop));

    public int Port => _listener.Port;

    public Uri Address => new($"http://127.0.0.1:{Port}");

    /// <summary>Connections accepted so far.</summary>
    public int Connections => _listener.Accepted;

    public ValueTask DisposeAsync() => _listener.DisposeAsync();

    // Reads and drops, so that the client's sends never block on a full window: silence, not back-pressure.
    private static async Task DrainAsync(Socket socket, CancellationToken stop)
    {
        var buffer = new byte[16 * 1024];
        try
        {
            while (await socket.ReceiveAsync(buffer, SocketFlags.None, stop) > 0)
            {
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // Stopped, or the client gave up and closed.
        }
    }
}
