using System.Diagnostics.Tracing;

namespace Harness.LoadTests.Clients;

/// <summary>
/// The runner's own clients' connection events as counters (<c>dotnet-counters monitor -n harness --counters
/// Harness-Clients</c>), as Grpc.Net.Client's GrpcEventSource counts its calls: the lean HTTP/2 client's connections,
/// GOAWAYs, RST_STREAMs and the protocol errors it closes a connection for, the HTTP/1.1 client's connections and
/// replies past a bound. Each event is one interlocked increment where the client already handles it (never per call
/// or per frame beyond the frame counted); the counters read the totals only while a listener asks for them.
/// </summary>
[EventSource(Name = SourceName)]
internal sealed class ClientEventSource : EventSource
{
    public const string SourceName = "Harness-Clients";

    public static readonly ClientEventSource Log = new();

    private long _http2Opened;
    private long _http2Closed;
    private long _http2ConnectFailures;
    private long _http2GoAways;
    private long _http2Resets;
    private long _http2ProtocolErrors;
    private long _http1Opened;
    private long _http1Closed;
    private long _http1ConnectFailures;
    private long _http1PastBound;
    private long _http1Malformed;

    private readonly Lock _lock = new();

    // Created on the first Enable: a process nobody watches holds none.
    private List<DiagnosticCounter>? _counters;

    private ClientEventSource()
    {
    }

    /// <summary>HTTP/2 connections opened (the TCP or Unix socket connected).</summary>
    internal long Http2ConnectionsOpened => Interlocked.Read(ref _http2Opened);

    /// <summary>HTTP/2 GOAWAY frames received.</summary>
    internal long Http2GoAwaysReceived => Interlocked.Read(ref _http2GoAways);

    /// <summary>HTTP/1.1 replies failed at one of the reader's bounds.</summary>
    internal long Http1ResponsesPastBound => Interlocked.Read(ref _http1PastBound);

    internal void Http2ConnectionOpened() => Interlocked.Increment(ref _http2Opened);

    internal void Http2ConnectionClosed() => Interlocked.Increment(ref _http2Closed);

    internal void Http2ConnectFailed() => Interlocked.Increment(ref _http2ConnectFailures);

    internal void Http2GoAwayReceived() => Interlocked.Increment(ref _http2GoAways);

    internal void Http2ResetReceived() => Interlocked.Increment(ref _http2Resets);

    internal void Http2ProtocolError() => Interlocked.Increment(ref _http2ProtocolErrors);

    internal void Http1ConnectionOpened() => Interlocked.Increment(ref _http1Opened);

    internal void Http1ConnectionClosed() => Interlocked.Increment(ref _http1Closed);

    internal void Http1ConnectFailed() => Interlocked.Increment(ref _http1ConnectFailures);

    internal void Http1ResponsePastBound() => Interlocked.Increment(ref _http1PastBound);

    internal void Http1MalformedResponse() => Interlocked.Increment(ref _http1Malformed);

    protected override void OnEventCommand(EventCommandEventArgs command)
    {
        if (command.Command != EventCommand.Enable)
        {
            return;
        }

        lock (_lock)
        {
            _counters ??=
            [
                Total("http2-connections-opened", "HTTP/2 connections opened", () => Volatile.Read(ref _http2Opened)),
                Rate("http2-connections-opened-per-second", "HTTP/2 connections opened rate", () => Volatile.Read(ref _http2Opened)),
                Total("http2-connections-closed", "HTTP/2 connections closed", () => Volatile.Read(ref _http2Closed)),
                Total("http2-connections-current", "HTTP/2 connections open", () => Volatile.Read(ref _http2Opened) - Volatile.Read(ref _http2Closed)),
                Total("http2-connect-failures", "HTTP/2 connections that could not connect", () => Volatile.Read(ref _http2ConnectFailures)),
                Total("http2-goaway-received", "HTTP/2 GOAWAY received", () => Volatile.Read(ref _http2GoAways)),
                Total("http2-rst-stream-received", "HTTP/2 RST_STREAM received", () => Volatile.Read(ref _http2Resets)),
                Rate("http2-rst-stream-received-per-second", "HTTP/2 RST_STREAM received rate", () => Volatile.Read(ref _http2Resets)),
                Total("http2-protocol-errors", "HTTP/2 connections closed for a protocol error or a bound", () => Volatile.Read(ref _http2ProtocolErrors)),
                Total("http1-connections-opened", "HTTP/1.1 connections opened", () => Volatile.Read(ref _http1Opened)),
                Rate("http1-connections-opened-per-second", "HTTP/1.1 connections opened rate", () => Volatile.Read(ref _http1Opened)),
                Total("http1-connections-closed", "HTTP/1.1 connections closed", () => Volatile.Read(ref _http1Closed)),
                Total("http1-connect-failures", "HTTP/1.1 connections that could not connect", () => Volatile.Read(ref _http1ConnectFailures)),
                Total("http1-responses-past-bound", "HTTP/1.1 replies past a bound", () => Volatile.Read(ref _http1PastBound)),
                Total("http1-malformed-responses", "HTTP/1.1 replies that are not HTTP/1.x", () => Volatile.Read(ref _http1Malformed)),
            ];
        }
    }

    protected override void Dispose(bool disposing)
    {
        foreach (var counter in _counters ?? [])
        {
            counter.Dispose();
        }

        base.Dispose(disposing);
    }

    private PollingCounter Total(string name, string displayName, Func<long> read) =>
        new(name, this, () => read()) { DisplayName = displayName };

    private IncrementingPollingCounter Rate(string name, string displayName, Func<long> read) =>
        new(name, this, () => read()) { DisplayName = displayName, DisplayRateTimeScale = TimeSpan.FromSeconds(1) };
}
