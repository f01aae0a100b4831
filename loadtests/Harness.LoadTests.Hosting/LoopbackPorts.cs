using System.Net;
using System.Net.Sockets;

namespace Harness.LoadTests.Hosting;

/// <summary>Free TCP ports on 127.0.0.1 for services the runner starts (processes or containers).</summary>
public static class LoopbackPorts
{
    /// <summary>
    /// <paramref name="count"/> distinct free ports. All are held open together while they are picked, so the OS
    /// cannot hand out the same port twice; each is free again when this returns.
    /// </summary>
    public static int[] Free(int count)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        var listeners = new TcpListener[count];
        try
        {
            for (var i = 0; i < count; i++)
            {
                listeners[i] = new TcpListener(IPAddress.Loopback, 0);
                listeners[i].Start();
            }

            return [.. listeners.Select(l => ((IPEndPoint)l.LocalEndpoint).Port)];
        }
        finally
        {
            foreach (var listener in listeners)
            {
                listener?.Dispose();
            }
        }
    }
}
