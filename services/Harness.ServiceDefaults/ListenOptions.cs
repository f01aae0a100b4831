using System.Net;

namespace Harness.ServiceDefaults;

/// <summary>The <c>Listen</c> configuration section: where the service accepts connections. Loopback by default.</summary>
public sealed class ListenOptions
{
    public const string SectionName = "Listen";

    /// <summary>An IP address (env <c>Listen__Address</c>); <c>0.0.0.0</c> in containers.</summary>
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>A TCP port (env <c>Listen__Port</c>); 0 picks a free one, which tests use.</summary>
    public int Port { get; set; }

    /// <summary>
    /// An extra plain HTTP/1.1 port (env <c>Listen__AdminPort</c>) for probes and scrapers that cannot speak
    /// HTTP/2 without TLS; it serves every route, /healthz and /metrics included. Unset means none.
    /// </summary>
    public int? AdminPort { get; set; }

    /// <summary>
    /// A port (env <c>Listen__MetricsPort</c>) where a dedicated thread answers GET /metrics and GET /healthz outside
    /// the ThreadPool, so the counters and the probes survive a starved pool (<see cref="DedicatedMetricsListener"/>).
    /// Unset means none; 0 picks a free one.
    /// </summary>
    public int? MetricsPort { get; set; }

    /// <summary>
    /// A Unix domain socket path (env <c>Listen__UnixSocket</c>) where the main endpoint also listens, with the same
    /// protocols as <see cref="Port"/>: the local transport that named pipes map to on Linux. Unset means none.
    /// The admin port and <see cref="MetricsPort"/> stay on TCP. A socket file left at the path by a service that
    /// ended without removing it is deleted at start; one that a live process still listens on stops the start.
    /// </summary>
    public string? UnixSocket { get; set; }

    internal IPAddress ParsedAddress => IPAddress.Parse(Address);
}
