using System.Net;
using System.Net.Sockets;
using System.Text;
using Harness.Metrics;
using Harness.Scheduling;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Harness.ServiceDefaults;

/// <summary>
/// GET /metrics and GET /healthz on <c>Listen__MetricsPort</c>, answered by one dedicated thread with blocking socket I/O.
/// </summary>
/// <remarks>
/// Kestrel accepts connections and runs requests on the ThreadPool, so when blocking calls starve the pool (the
/// threadpool mode's CallThirdParty does, by design) /metrics starves with everything else, and the charts of
/// threads and queue lose the very seconds they exist to show; so does Kestrel's /healthz, and a probe that waits
/// behind the workload restarts or unreadies the service mid-run. Here nothing waits for the pool: accept, read,
/// render and write are plain system calls on this thread, and the snapshot reads the counters directly. /healthz
/// is 200 from the host's ApplicationStarted (every hosted service started, Kestrel's listeners bound) until its
/// ApplicationStopping, 503 otherwise: it says the process is up and serving, not that a request would be fast. One
/// connection at a time, closed after its answer; a client that sends nothing holds it for at most
/// <see cref="IoTimeout"/>. Nothing that goes wrong here may end the process or the thread: an exception on a
/// thread of its own would kill the service (a process out of descriptors did exactly that, mid-run), so a failed
/// render answers 500, and a failed accept (EMFILE) is tried again after <see cref="AcceptRetryDelay"/>.
/// </remarks>
public sealed class DedicatedMetricsListener(
    IOptions<ListenOptions> listen, IServiceProvider services, IHostApplicationLifetime lifetime, ILogger<DedicatedMetricsListener> logger)
    : IHostedService, IDisposable
{
    private static readonly TimeSpan IoTimeout = TimeSpan.FromSeconds(5);
    private static readonly TimeSpan AcceptRetryDelay = TimeSpan.FromMilliseconds(100);
    private const int MaxRequestBytes = 8 * 1024;
    private const string PlainText = "text/plain; charset=utf-8";

    private TcpListener? _listener;

    // Starting, serving, stopping: written by the host's lifetime callbacks, read by the listener's thread.
    private volatile int _state = (int)HostState.Starting;

    /// <summary>The bound port once started (<c>Listen__MetricsPort=0</c> picks a free one); null when not configured.</summary>
    public int? Port { get; private set; }

    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (listen.Value.MetricsPort is not { } port)
        {
            return Task.CompletedTask;
        }

        // Resolved once, here: the thread must not depend on the container (or anything it might lazily start) later.
        var identity = services.GetRequiredService<ServiceIdentity>();
        var scheduler = services.GetService<IWorkScheduler>();
        var sources = services.GetServices<IMetricsSource>().ToArray();
        lifetime.ApplicationStarted.Register(() => _state = (int)HostState.Serving);
        lifetime.ApplicationStopping.Register(() => _state = (int)HostState.Stopping);
        var listener = new TcpListener(listen.Value.ParsedAddress, port);
        listener.Start();
        _listener = listener;
        Port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var thread = new Thread(() => Serve(listener, () => MetricsEndpoint.Render(identity, scheduler, sources), () => (HostState)_state, logger))
        {
            IsBackground = true,
            Name = "harness-metrics",
        };
        thread.Start();
        logger.LogInformation("/metrics and /healthz also served on {Address}:{Port} by a dedicated thread", listen.Value.Address, Port);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        Dispose();
        return Task.CompletedTask;
    }

    public void Dispose()
    {
        // Closing the socket ends the blocked accept, and the thread with it.
        Interlocked.Exchange(ref _listener, null)?.Dispose();
    }

    private static void Serve(TcpListener listener, Func<string> render, Func<HostState> state, ILogger logger)
    {
        var failing = false;
        while (true)
        {
            Socket client;
            try
            {
                client = listener.AcceptSocket();
                failing = false;
            }
            catch (Exception ex) when (ex is ObjectDisposedException or InvalidOperationException)
            {
                return; // stopped
            }
            catch (SocketException ex) when (ex.SocketErrorCode is not (SocketError.OperationAborted or SocketError.Interrupted or SocketError.NotSocket))
            {
                // Out of descriptors, or a connection that went before it was accepted: the next one may fare better.
                // Said once a streak: out of descriptors, this fails ten times a second.
                if (!failing)
                {
                    logger.LogWarning("/metrics could not accept a connection, retrying until it can: {Reason}", ex.Message);
                    failing = true;
                }

                Thread.Sleep(AcceptRetryDelay);
                continue;
            }
            catch (SocketException)
            {
                return; // the listener was closed under the blocked accept
            }

            using (client)
            {
                try
                {
                    client.ReceiveTimeout = client.SendTimeout = (int)IoTimeout.TotalMilliseconds;
                    client.Send(Answer(ReadRequestLine(client), render, state()));
                    client.Shutdown(SocketShutdown.Both);
                }
                catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
                {
                    // The client went away or never finished its request: nothing to answer.
                }
            }
        }
    }

    /// <summary>The request's first line, once the headers have arrived (their end, or 8 KB of them).</summary>
    internal static string ReadRequestLine(Socket client)
    {
        var buffer = new byte[MaxRequestBytes];
        var length = 0;
        while (length < buffer.Length)
        {
            var read = client.Receive(buffer, length, buffer.Length - length, SocketFlags.None);
            if (read == 0)
            {
                break;
            }

            length += read;
            if (buffer.AsSpan(0, length).IndexOf("\r\n\r\n"u8) >= 0)
            {
                break;
            }
        }

        var text = Encoding.ASCII.GetString(buffer, 0, length);
        var end = text.IndexOf("\r\n", StringComparison.Ordinal);
        return end < 0 ? text : text[..end];
    }

    /// <summary>
    /// The whole HTTP/1.1 response to <paramref name="requestLine"/>: the metrics for GET (or HEAD) /metrics, the
    /// host's <paramref name="state"/> for /healthz, 404 or 405 otherwise.
    /// </summary>
    internal static byte[] Answer(string requestLine, Func<string> render, HostState state)
    {
        var parts = requestLine.Split(' ');
        var path = parts.Length == 3 ? parts[1].Split('?')[0] : null;
        var (status, contentType, body) = (parts.Length == 3 ? parts[0] : null, path) switch
        {
            (_, not ("/metrics" or "/healthz")) => ("404 Not Found", PlainText, "Only /metrics and /healthz are served on this port.\n"),
            (not ("GET" or "HEAD"), _) => ("405 Method Not Allowed", PlainText, "GET or HEAD only.\n"),
            (_, "/healthz") => Health(state),
            _ => Render(render),
        };
        var bytes = Encoding.UTF8.GetBytes(body);
        var head = Encoding.ASCII.GetBytes(
            $"HTTP/1.1 {status}\r\nContent-Type: {contentType}\r\nContent-Length: {bytes.Length}\r\nConnection: close\r\n\r\n");
        return parts[0] == "HEAD" ? head : [.. head, .. bytes];
    }

    // Any failure of a snapshot is the answer's, never the thread's.
    private static (string Status, string ContentType, string Body) Render(Func<string> render)
    {
        try
        {
            return ("200 OK", PrometheusWriter.ContentType, render());
        }
        catch (Exception ex)
        {
            return ("500 Internal Server Error", PlainText, $"metrics could not be read: {ex.GetType().Name}: {ex.Message}\n");
        }
    }

    // ASP.NET's own /healthz says Healthy or Unhealthy; the reason is for whoever reads a failed probe's output.
    private static (string Status, string ContentType, string Body) Health(HostState state) => state switch
    {
        HostState.Serving => ("200 OK", PlainText, "Healthy\n"),
        HostState.Starting => ("503 Service Unavailable", PlainText, "Unhealthy: starting, the listeners are not bound yet\n"),
        _ => ("503 Service Unavailable", PlainText, "Unhealthy: stopping\n"),
    };
}

/// <summary>Where the host is in its lifetime, as the dedicated /healthz reports it.</summary>
internal enum HostState
{
    Starting,
    Serving,
    Stopping,
}
