using Harness.LoadTests.Clients;
using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>How each series is measured, apart from its load: its warm-up, the backoff after connection failures, each call's timeout and largest reply.</summary>
/// <param name="Backoff">How a virtual user waits after a connection failure; null = it retries at once (<c>--backoff off</c>).</param>
/// <param name="WarmUp">How long each series is loaded at its own shape before it is measured (<see cref="SeriesLoad"/>); zero = not at all.</param>
/// <param name="CallTimeout">
/// <c>--timeout</c>: how long any call (of the load, the runner's warm-up, the ideal's lone calls) may take before the
/// client gives it up as a failure (<c>timeout</c>; gRPC's <c>DEADLINE_EXCEEDED</c>).
/// </param>
internal sealed record MeasurementSettings(FailureBackoff? Backoff, TimeSpan WarmUp, TimeSpan CallTimeout)
{
    /// <summary>
    /// <c>--max-message-size</c> when given: the largest reply message every client of the run takes, in bytes
    /// (<see cref="MessageSizes"/>); a larger one fails its call (RESOURCE_EXHAUSTED, <c>response-too-large</c>). When
    /// not given, each client keeps its own default (<see cref="MaxMessageSize"/>; the WCF client its binding's 64 KiB).
    /// </summary>
    public int? GivenMaxMessageSize { get; init; }

    /// <summary>
    /// The largest reply of the gRPC clients, the lean SOAP client and a <c>--call</c>: <see cref="GivenMaxMessageSize"/>,
    /// else 4 MiB. WCF buffers each reply whole, so at 4 MiB a server whose body never ends held about 1 GB in the
    /// runner against 0.2 GB at WCF's own 64 KiB (docs/results.md, "Hostile servers again"): it keeps 64 KiB unless asked.
    /// </summary>
    public int MaxMessageSize => GivenMaxMessageSize ?? MessageSizes.Default;

    /// <summary>How every client of the run trusts an https:// target and whether it sends a client certificate (<c>--cacert</c>, <c>--cert</c>, <c>--key</c>, <c>--insecure</c>).</summary>
    public ClientTls Tls { get; init; } = ClientTls.System;

    /// <summary>k6's default per-request timeout; also BasicHttpBinding's send timeout, which the WCF client had before.</summary>
    public static TimeSpan DefaultCallTimeout { get; } = TimeSpan.FromSeconds(60);

    /// <summary>The engine's default, 100 ms doubling up to 2 s: an outage is measured as time, not as a flood of instant failures.</summary>
    public static FailureBackoff DefaultBackoff { get; } = new(TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(2));

    /// <summary>The warm-up at <c>--time-scale 1</c>; a scaled run scales it too.</summary>
    public static TimeSpan DefaultWarmUp { get; } = TimeSpan.FromSeconds(10);

    public static MeasurementSettings Default { get; } = new(DefaultBackoff, DefaultWarmUp, DefaultCallTimeout);
}
