using System.Diagnostics.Tracing;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace Harness.LoadTests.Diagnostics;

/// <summary>
/// One EventPipe session on a target's .NET runtime, as <c>dotnet-counters</c> opens one: nothing is changed in the
/// target or its code. Two providers: the <c>System.Runtime</c> meter through <c>System.Diagnostics.Metrics</c>, its
/// values published every second (<see cref="RefreshSeconds"/>), and <c>Microsoft-Windows-DotNETRuntime</c>'s
/// Threading keyword at Informational, for <c>ThreadPoolWorkerThreadAdjustment/Adjustment</c>. Its events go to
/// <see cref="Figures"/> on a thread of the session's own until the target exits or the session is disposed.
/// </summary>
/// <remarks>
/// The meter rather than the <c>System.Runtime</c> EventCounters: on .NET 9 and later it gives the totals as totals
/// (CPU seconds, completed work items, lock contentions) and memory in bytes, where the EventCounters give each
/// interval's increment, CPU as a percentage and memory in MB; a runtime older than .NET 9 has no such meter, and
/// then only the adjustments are read (<see cref="RuntimeFigures.HasMeterValues"/> stays false).
/// </remarks>
internal sealed class RuntimeSession : IAsyncDisposable
{
    public const int RefreshSeconds = 1;

    /// <summary>How long an attach may take: a runtime that does not answer its socket in that time is not waited for.</summary>
    public static readonly TimeSpan AttachTimeout = TimeSpan.FromSeconds(5);

    private const string MetricsProvider = "System.Diagnostics.Metrics";
    private const string RuntimeProvider = "Microsoft-Windows-DotNETRuntime";
    private const long ThreadingKeyword = 0x10000;
    private const uint AdjustmentEventId = 55;
    private const long TimeSeriesValuesKeyword = 0x2;
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(3);

    private readonly EventPipeSession _session;
    private readonly DiagnosticsClientConnector? _connector;
    private readonly string _sessionId;
    private readonly Task _reading;
    private string? _problem;

    private RuntimeSession(EventPipeSession session, DiagnosticsClientConnector? connector, string sessionId)
    {
        _session = session;
        _connector = connector;
        _sessionId = sessionId;
        _reading = Task.Factory.StartNew(Read, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }

    public RuntimeFigures Figures { get; } = new();

    /// <summary>Completes when the session's stream ends: the target exited, or the session was stopped.</summary>
    public Task Completion => _reading;

    /// <summary>What the target's metrics source said went wrong (another tool's metrics session, a failed callback); null while nothing did.</summary>
    public string? Problem => Volatile.Read(ref _problem);

    /// <summary>Connects to <paramref name="endpoint"/> and starts the session.</summary>
    /// <exception cref="RuntimeAttachException">No .NET runtime answers there in <see cref="AttachTimeout"/>; the message says why, in one line.</exception>
    public static async Task<RuntimeSession> StartAsync(RuntimeEndpoint endpoint, CancellationToken cancellationToken)
    {
        var sessionId = Guid.NewGuid().ToString();
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(AttachTimeout);
        DiagnosticsClientConnector? connector = null;
        try
        {
            DiagnosticsClient client;
            if (endpoint.ProcessId is { } pid)
            {
                client = new DiagnosticsClient(pid);
            }
            else
            {
                // ",connect": the runtime listens on the path and the harness connects, as to its default socket.
                connector = await DiagnosticsClientConnector.FromDiagnosticPort(endpoint.SocketPath + ",connect", timeout.Token);
                client = connector.Instance;
            }

            EventPipeSession session;
            try
            {
                session = await client.StartEventPipeSessionAsync(Configuration(sessionId, adjustmentsOnly: true), timeout.Token);
            }
            catch (ServerErrorException)
            {
                // A runtime before .NET 10 knows no event filter (CollectTracing5): the whole keyword, then.
                session = await client.StartEventPipeSessionAsync(Configuration(sessionId, adjustmentsOnly: false), timeout.Token);
            }

            return new RuntimeSession(session, connector, sessionId);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            if (connector is not null)
            {
                await connector.DisposeAsync();
            }

            cancellationToken.ThrowIfCancellationRequested();
            var why = ex is OperationCanceledException ? $"no answer in {AttachTimeout.TotalSeconds:0} s" : ex.Message.ReplaceLineEndings(" ");
            throw new RuntimeAttachException($"no .NET runtime to attach to at {endpoint} ({why})", ex);
        }
    }

    /// <summary>Stops the session (the runtime ends the stream) and waits briefly for the reading thread.</summary>
    public async ValueTask DisposeAsync()
    {
        try
        {
            using var stop = new CancellationTokenSource(StopTimeout);
            await _session.StopAsync(stop.Token);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The target is gone, or already stopped the session: its stream has ended or ends with the dispose below.
        }

        _session.Dispose();
        await Task.WhenAny(_reading, Task.Delay(StopTimeout));
        if (_connector is not null)
        {
            await _connector.DisposeAsync();
        }
    }

    /// <param name="adjustmentsOnly">
    /// Of the Threading keyword's events only the adjustment: the target then writes none of the keyword's others (a
    /// worker thread's wait, start and stop, each hill-climbing sample: some 50 a second under load), which nothing here reads.
    /// </param>
    private static EventPipeSessionConfiguration Configuration(string sessionId, bool adjustmentsOnly) => new(
        [
            new EventPipeProvider(MetricsProvider, EventLevel.Informational, TimeSeriesValuesKeyword, new Dictionary<string, string>
            {
                ["SessionId"] = sessionId,
                ["Metrics"] = "System.Runtime",
                ["RefreshInterval"] = RefreshSeconds.ToString(CultureInfo.InvariantCulture),
                ["MaxTimeSeries"] = "100",
                ["MaxHistograms"] = "10",
                ["ClientId"] = sessionId,
            }),
            new EventPipeProvider(RuntimeProvider, EventLevel.Informational, ThreadingKeyword, arguments: null,
                eventFilter: adjustmentsOnly ? new EventPipeProviderEventFilter(enable: true, eventIds: [AdjustmentEventId]) : null),
        ],
        circularBufferSizeMB: 16,
        requestRundown: false,
        requestStackwalk: false);

    private void Read()
    {
        try
        {
            using var source = new EventPipeEventSource(_session.EventStream);
            source.Clr.ThreadPoolWorkerThreadAdjustmentAdjustment += OnAdjustment;
            source.Dynamic.All += OnDynamic;
            source.Process();
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A stream cut mid-event (the target killed) ends the session like a clean end does.
        }
    }

    private void OnAdjustment(ThreadPoolWorkerThreadAdjustmentTraceData data) => Figures.Adjustment(data.NewWorkerThreadCount, (int)data.Reason);

    private void OnDynamic(TraceEvent data)
    {
        if (data.ProviderName != MetricsProvider || data.PayloadValue(0) is not string sessionId)
        {
            return;
        }

        switch (data.EventName)
        {
            // Payload: sessionId, meter, version, instrument, unit, tags, then the gauge's value, or a counter's rate
            // and (version 1, .NET 8 and later) its value.
            case "GaugeValuePublished" when sessionId == _sessionId:
                Publish(data, 6);
                break;
            case "CounterRateValuePublished" or "UpDownCounterRateValuePublished" when sessionId == _sessionId && data.Version >= 1:
                Publish(data, 7);
                break;
            case "Collection/Stop" or "CollectionStop" when sessionId == _sessionId:
                // One collection's values are all in: a reading, stamped with the target's time of it.
                Figures.EndCollection(data.TimeStamp.ToUniversalTime());
                break;
            case "Error" or "ObservableInstrumentCallbackError" when sessionId == _sessionId:
                Interlocked.CompareExchange(ref _problem, $"its metrics source reported: {data.PayloadValue(1)}".ReplaceLineEndings(" "), null);
                break;
            case "MultipleSessionsNotSupportedError" when sessionId != _sessionId:
                Interlocked.CompareExchange(ref _problem, "another tool's metrics session (dotnet-counters, dotnet-monitor) holds its System.Runtime meter", null);
                break;
        }
    }

    private void Publish(TraceEvent data, int valueIndex)
    {
        if (data.PayloadValue(3) is string instrument && data.PayloadValue(valueIndex) is string text
            && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value))
        {
            Figures.MeterValue(instrument, data.PayloadValue(5) as string ?? "", value);
        }
    }
}

/// <summary>No session could be opened on a target's runtime; the message is the one line a run says about it.</summary>
internal sealed class RuntimeAttachException(string message, Exception inner) : Exception(message, inner);
