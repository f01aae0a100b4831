using System.Diagnostics;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Running;

/// <summary>
/// What every series of a run shares, fixed when the run starts: the options, the load shape, where measurements
/// go, and the run's clock (second 0 of the recorder's files).
/// </summary>
internal sealed class RunContext(RunOptions options, GuardedRecorder recorder, ProgressPrinter progress, HttpClient scrapeHttp, ISeriesWatcher? watcher)
{
    public RunOptions Options { get; } = options;

    /// <summary>Every series' load, warm-up and profile as the engine's stages, built once for every series.</summary>
    public SeriesLoad Load { get; } = options.SeriesLoad();

    /// <summary>The run's one answer to "open or closed model?": the profile's stages decide it, once.</summary>
    public bool IsOpenModel { get; } = options.Profile.IsOpenModel;

    /// <summary>The model as the raw files name it: <c>open</c> or <c>closed</c>.</summary>
    public string LoadModel => IsOpenModel ? "open" : "closed";

    public GuardedRecorder Recorder { get; } = recorder;

    public ProgressPrinter Progress { get; } = progress;

    /// <summary>Shared by every series' <see cref="ServerScraper"/>.</summary>
    public HttpClient ScrapeHttp { get; } = scrapeHttp;

    /// <summary><c>matrix</c>'s container watcher; null for local and external targets.</summary>
    public ISeriesWatcher? Watcher { get; } = watcher;

    /// <summary>Who watches the run from outside (<c>--metrics-port</c>, OTLP: Telemetry/); null when no one does.</summary>
    public IRunFollower? Follower { get; init; }

    /// <summary>Time since the run started; events and series offsets count from it.</summary>
    public Stopwatch Clock { get; } = Stopwatch.StartNew();
}
