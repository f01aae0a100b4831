namespace Harness.ServiceDefaults;

/// <summary>The <c>Http2</c> configuration section: Kestrel's HTTP/2 limits for every endpoint that speaks it.</summary>
public sealed class Http2Options
{
    public const string SectionName = "Http2";

    /// <summary>Kestrel's own default, which the services raise.</summary>
    public const int KestrelDefaultMaxStreamsPerConnection = 100;

    /// <summary>
    /// Requests one HTTP/2 connection may have in flight at once (env <c>Http2__MaxStreamsPerConnection</c>);
    /// Kestrel refuses streams beyond it, and a client on one connection queues them. Kestrel allocates a stream's
    /// state only while the stream is open, so a high ceiling costs nothing until it is used (docs/scheduling.md).
    /// The default lets one client connection carry experiment S1's 100,000 concurrent calls.
    /// </summary>
    public int MaxStreamsPerConnection { get; set; } = 100_000;
}
