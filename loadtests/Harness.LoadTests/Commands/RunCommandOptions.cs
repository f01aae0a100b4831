using System.Globalization;
using System.CommandLine;
using Harness.Agreements;
using Harness.LoadTests.Common;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Running;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;
using Harness.LoadTests.Telemetry;

namespace Harness.LoadTests.Commands;

/// <summary>The options of <c>harness run</c> (also accepted with no subcommand), and their validation.</summary>
internal sealed class RunCommandOptions
{
    private const int MinRepeat = 1;
    private const int MaxRepeat = 20;

    private static readonly char[] ListSeparators = [',', ' '];

    public Option<string?> Config { get; } = new("--config") { Description = "Take the run's options from this JSON file (keys: the options' names in camelCase, e.g. timeScale; a run's run-config.json repeats it); options on the command line win." };

    public Option<string> Profile { get; } = new("--profile") { Description = $"Load profile: {string.Join(", ", LoadProfile.BuiltInNames)}, a JSON file, or the profile's JSON itself.", DefaultValueFactory = _ => "quick" };

    public Option<double> TimeScale { get; } = new("--time-scale") { Description = "Multiply every duration of the profile (0.1 = ten times shorter).", DefaultValueFactory = _ => 1.0 };

    public Option<string?> Duration { get; } = new("--duration") { Description = "Stretch the profile to this length, e.g. 4h for a soak." };

    public Option<int?> Users { get; } = new("--users") { Description = "Scale a closed-model profile so its peak is this many virtual users." };

    public Option<int?> Rate { get; } = new("--rate") { Description = "Scale an open-model profile so its peak is this many requests per interval." };

    public Option<string> Stacks { get; } = new("--stacks") { Description = "Stacks to load: soap, grpc.", DefaultValueFactory = _ => "soap,grpc" };

    public Option<string> Operations { get; } = new("--operations") { Description = "Operations: compute, call-third-party.", DefaultValueFactory = _ => "compute,call-third-party" };

    public Option<string> Modes { get; } = new("--modes") { Description = "Scheduling modes to start locally, in order: threadpool, iocp, custompool; a mode listed twice runs twice. With --target: which of the targets' modes to run.", DefaultValueFactory = _ => string.Join(",", SchedulingModes.Names) };

    public Option<string> Repeat { get; } = new("--repeat")
    {
        Description = $"Run every mode N times ({MinRepeat}–{MaxRepeat}), in a balanced order (pairs of a round and its mirror, A B | B A, each pair from the next listing), each time with services of its own; "
            + $"or auto[:MAX]: add rounds until every comparison is settled (differs, or within ±5 %), at most MAX (even, 2–{MaxRepeat}; default {SequentialRule.DefaultMaxRounds}).",
        DefaultValueFactory = _ => "1",
    };

    public Option<string[]> Targets { get; } = new("--target") { Description = "A running service instead of local ones: soap=http://host:port or grpc=http://host:port, then [,metrics=http://host:port][,mode=name][,pid=PID or ,diag=SOCKET: its .NET runtime, attached to over EventPipe]. Repeatable; targets with different mode= run one mode after another, compared in one report.", AllowMultipleArgumentsPerToken = false };

    public Option<string?> ServiceCpus { get; } = new("--service-cpus") { Description = "Run the local stub and services on these processors alone (taskset's list: 1, 0-1, 0,2); the services then see that many processors. Local services only." };

    public Option<string> RuntimeEvents { get; } = new("--runtime-events")
    {
        Description = "on: attach to each target's .NET runtime over EventPipe where one is known (the services the runner starts; a target's pid= or diag=) and record its ThreadPool figures each second; off: attach to none.",
        DefaultValueFactory = _ => "on",
    };

    public Option<string> ModeLabel { get; } = new("--mode-label") { Description = "What to call the mode of external targets that have no mode= of their own.", DefaultValueFactory = _ => "external" };

    public Option<int> Iterations { get; } = new("--iterations") { Description = "Compute: loop count per call.", DefaultValueFactory = _ => OperationSettings.Default.Iterations };

    public Option<int> Fanout { get; } = new("--fanout") { Description = "CallThirdParty: calls per request.", DefaultValueFactory = _ => OperationSettings.Default.Fanout };

    public Option<int> DelayMs { get; } = new("--delay-ms") { Description = "CallThirdParty: the stub's delay per call, in ms.", DefaultValueFactory = _ => OperationSettings.Default.DelayMs };

    public Option<string> Style { get; } = new("--style") { Description = $"CallThirdParty: {string.Join(", ", CallStyles.Names)}.", DefaultValueFactory = _ => OperationSettings.Default.Style };

    public Option<int> Parallelism { get; } = new("--parallelism") { Description = "CallThirdParty: most calls in flight per request; 0 = all.", DefaultValueFactory = _ => 0 };

    public Option<long> MaxFailures { get; } = new("--max-failures") { Description = "Stop a series after this many failures (NBomber's default is 5,000).", DefaultValueFactory = _ => 1_000_000 };

    public Option<string[]> Assertions { get; } = new("--assert") { Description = "A threshold such as p99<4500ms or errors<1%; the exit code is 1 when one fails. Repeatable." };

    public Option<string> Output { get; } = new("--output") { Description = "Folder for run folders.", DefaultValueFactory = _ => "reports" };

    public Option<bool> Live { get; } = new("--live") { Description = "Serve a page on 127.0.0.1 (its address is printed at the start) that charts the current series each second while the run lasts." };

    public Option<int?> MetricsPort { get; } = MetricsPortOption.Create("the run's figures (requests, failures and latency by series, users, in flight, phase, the runner's CPU and memory)");

    public Option<string> LogLevel { get; } = LogLevelOption.Create();

    /// <summary>How each series is measured: <c>--warm-up</c>, <c>--backoff</c>, <c>--timeout</c>, <c>--max-message-size</c>.</summary>
    public MeasurementOptions Measurement { get; } = new();

    /// <summary>The scenarios of a user's own app (<c>HarnessApp.RunAsync</c>): they replace the harness's operations.</summary>
    public IReadOnlyList<Engine.Scenario> UserScenarios { get; init; } = [];

    /// <summary>Where <c>--log-level</c>'s lines go: standard error when null (tests give a writer of their own).</summary>
    public TextWriter? LogWriter { get; init; }

    /// <summary>Any method or operation of a running service: <c>--call</c>, <c>--data</c>, <c>--proto</c>, <c>--wsdl</c>…</summary>
    public CallOptions Calls { get; } = new();

    /// <summary>TLS of https:// targets: <c>--cacert</c>, <c>--cert</c>, <c>--key</c>, <c>--insecure</c>.</summary>
    public TlsOptions Tls { get; } = new();

    /// <summary>Every option of <c>run</c>, in the order of its help; <see cref="RunConfigFile"/> takes its keys from them.</summary>
    public IReadOnlyList<Option> All =>
    [
        Config, Profile, TimeScale, Duration, Users, Rate, Stacks, Operations, Modes, Repeat, Targets, ModeLabel, ServiceCpus, RuntimeEvents,
        .. Calls.All, Iterations, Fanout, DelayMs, Style, Parallelism, MaxFailures, Assertions, Output, Live, MetricsPort, Measurement.WarmUp, Measurement.Backoff, Measurement.Timeout,
        Measurement.MaxMessageSize,
        .. Tls.All,
        LogLevel,
    ];

    public void AddTo(Command command)
    {
        foreach (var option in All)
        {
            command.Options.Add(option);
        }
    }

    /// <exception cref="UsageException">A value is out of range or unknown; the message names the option and the valid values.</exception>
    public RunOptions Bind(ParseResult parse, string commandLine)
    {
        var profile = Load(parse.GetValue(Profile)!);
        var scale = parse.GetValue(TimeScale);
        profile = Guard(() => profile.Scale(scale));
        if (parse.GetValue(Duration) is { } durationText)
        {
            if (!DurationJsonConverter.TryParse(durationText, out var duration))
            {
                throw new UsageException($"--duration '{durationText}' is not a duration; write e.g. 90s, 30m or 4h.");
            }

            profile = Guard(() => profile.WithDuration(duration));
        }

        if (parse.GetValue(Users) is { } users)
        {
            profile = Guard(() => profile.WithPeakUsers(users));
        }

        if (parse.GetValue(Rate) is { } rate)
        {
            profile = Guard(() => profile.WithPeakRate(rate));
        }

        var stacks = List(parse.GetValue(Stacks)!, "--stacks", Harness.LoadTests.Targets.Stacks.All);
        var operations = UserScenarios.Count > 0 ? ScenarioOperations(parse) : List(parse.GetValue(Operations)!, "--operations", Scenarios.Operations.All);
        var label = parse.GetValue(ModeLabel)!;
        var targets = (parse.GetValue(Targets) ?? []).Select(t => Guard(() => ExternalTargets.Parse(t, label))).ToList();
        IReadOnlyList<string> modes;
        if (targets.Count > 0)
        {
            modes = [.. targets.Select(t => t.Mode).Distinct()];
            if (parse.GetResult(Modes) is { Implicit: false })
            {
                // Given with --target, --modes picks the targets' modes to run, in its order (a test or a stand-in
                // can shorten a run whose targets are fixed in a manifest).
                var picked = List(parse.GetValue(Modes)!, "--modes", modes, distinct: false);
                targets = [.. targets.Where(t => picked.Contains(t.Mode))];
                modes = picked;
            }

            stacks = [.. stacks.Where(s => targets.Any(t => t.Stack == s))];
            if (stacks.Count == 0)
            {
                throw new UsageException("--target names no stack listed in --stacks.");
            }
        }
        else if (UserScenarios.Count > 0)
        {
            // No service to start: the scenarios' steps know where they send. --modes labels repetitions (an A/A run).
            stacks = [Harness.LoadTests.Targets.Stacks.Scenario];
            modes = parse.GetResult(Modes) is { Implicit: false }
                ? [.. SplitList(parse.GetValue(Modes)!).Select(m => ExternalTargets.IsLabel(m) ? m : throw new UsageException(
                    $"--modes '{m}': without --target a mode is a label (letters, digits, '-', '_', at most 40)."))]
                : [parse.GetResult(ModeLabel) is { Implicit: false } ? label : "default"];
        }
        else
        {
            // Duplicates kept: --modes threadpool,threadpool runs threadpool twice.
            modes = List(parse.GetValue(Modes)!, "--modes", SchedulingModes.Names, distinct: false);
        }

        // --call loads one method of the targets' stack, named as an operation is in series ids.
        var call = Calls.Bind(parse, targets, operationsGiven: parse.GetResult(Operations) is { Implicit: false });
        if (call is not null)
        {
            stacks = [call.Stack];
            operations = [call.ShortName];
        }

        var (repeat, untilSettled) = ParseRepeat(parse.GetValue(Repeat)!);
        if (untilSettled && modes.Count < 2)
        {
            throw new UsageException(
                $"--repeat auto settles comparisons, and {string.Join(", ", modes)} alone gives none: give two modes or more, or one mode twice for an A/A run (e.g. --modes {modes.FirstOrDefault() ?? "threadpool"},{modes.FirstOrDefault() ?? "threadpool"}).");
        }

        var settings = new OperationSettings(
            parse.GetValue(Iterations), parse.GetValue(Fanout), parse.GetValue(DelayMs), parse.GetValue(Style)!, parse.GetValue(Parallelism));
        ValidateSettings(settings);
        if (DescriptorBudget.Check(stacks, operations, settings, profile.PeakUsers, localServices: targets.Count == 0 && UserScenarios.Count == 0, DescriptorBudget.ProcessLimit()) is { } tooMany)
        {
            throw new UsageException(tooMany);
        }

        var maxFailures = parse.GetValue(MaxFailures);
        if (maxFailures < 1)
        {
            throw new UsageException($"--max-failures must be 1 or more; got {maxFailures}.");
        }

        return new RunOptions(
            profile,
            scale,
            stacks,
            operations,
            modes,
            repeat,
            targets,
            settings,
            maxFailures,
            [.. (parse.GetValue(Assertions) ?? []).Select(a => Guard(() => Threshold.Parse(a)))],
            parse.GetValue(Output)!,
            commandLine)
        {
            RepeatUntilSettled = untilSettled,
            Measurement = Measurement.Bind(parse, scale) with { Tls = Tls.Bind(parse, targets) },
            Live = parse.GetValue(Live),
            MetricsPort = MetricsPortOption.Bind(parse, MetricsPort),
            EffectiveConfig = RunConfigFile.Effective(parse, this),
            CallRequest = call,
            SoapClient = Calls.BindSoapClient(parse, call),
            GrpcClient = Calls.BindGrpcClient(parse),
            ClientLog = ClientLog.To(LogWriter ?? Console.Error, LogLevelOption.Bind(parse, LogLevel)),
            RuntimeEvents = BindRuntimeEvents(parse.GetValue(RuntimeEvents)!),
            ServiceAffinity = BindServiceCpus(parse, localServices: targets.Count == 0 && UserScenarios.Count == 0),
            UserScenarios = [.. UserScenarios.Where(s => operations.Contains(s.Name))],
        };
    }

    /// <summary>An app's scenarios are its operations, as declared; <c>--operations</c> picks some of them, <c>--call</c> none.</summary>
    private List<string> ScenarioOperations(ParseResult parse)
    {
        var names = UserScenarios.Select(s => s.Name).ToList();
        if (parse.GetResult(Calls.Call) is { Implicit: false })
        {
            throw new UsageException($"--call loads one method instead of scenarios; this app runs its own scenarios ({string.Join(", ", names)}).");
        }

        return parse.GetResult(Operations) is { Implicit: false }
            ? [.. List(parse.GetValue(Operations)!, "--operations", names).Select(p => names.First(n => string.Equals(n, p, StringComparison.OrdinalIgnoreCase)))]
            : names;
    }

    private static bool BindRuntimeEvents(string value) => value.Trim().ToLowerInvariant() switch
    {
        "on" => true,
        "off" => false,
        _ => throw new UsageException($"--runtime-events '{value}': valid values are on, off."),
    };

    /// <summary><c>--service-cpus</c>, checked: a processor list of this machine, for services the runner starts, with taskset at hand.</summary>
    private CpuAffinity? BindServiceCpus(ParseResult parse, bool localServices)
    {
        if (parse.GetValue(ServiceCpus) is not { } list)
        {
            return null;
        }

        if (!localServices)
        {
            throw new UsageException("--service-cpus places the services the runner starts; with --target (or an app's own scenarios) they run elsewhere: pin them there (compose's cpuset, a Kubernetes CPU manager policy).");
        }

        if (!OperatingSystem.IsLinux() || !OnPath("taskset"))
        {
            throw new UsageException("--service-cpus starts the services under taskset (util-linux), which this machine lacks: on Debian, apt-get install util-linux.");
        }

        try
        {
            return CpuAffinity.Parse(list, CpuAffinity.OnlineProcessors());
        }
        catch (FormatException ex)
        {
            throw new UsageException($"--service-cpus {ex.Message}");
        }
    }

    private static bool OnPath(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Any(folder => File.Exists(Path.Combine(folder, program)));

    private static void ValidateSettings(OperationSettings settings)
    {
        // The service enforces its own limits too; these catch typos before minutes of load are spent.
        var limits = new WorkloadLimits();
        Guard(() =>
        {
            limits.ValidateIterations(settings.Iterations);
            limits.Validate(new ThirdPartyCallRequest(settings.Fanout, settings.DelayMs, CallStyles.Parse(settings.Style), settings.Parallelism));
            return 0;
        });
    }

    private static LoadProfile Load(string nameOrPath) => Guard(() => LoadProfile.Load(nameOrPath));

    /// <summary>The items of a list option (<c>--stacks</c>, <c>--operations</c>, <c>--modes</c>), as typed.</summary>
    internal static string[] SplitList(string value) =>
        value.Split(ListSeparators, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static List<string> List(string value, string option, IReadOnlyCollection<string> valid, bool distinct = true)
    {
        var listed = SplitList(value).Select(v => v.ToLowerInvariant());
        var items = (distinct ? listed.Distinct() : listed).ToList();
        var unknown = items.Where(i => !valid.Contains(i, StringComparer.OrdinalIgnoreCase)).ToList();
        if (items.Count == 0 || unknown.Count > 0)
        {
            throw new UsageException($"{option} '{value}': valid values are {string.Join(", ", valid)}.");
        }

        return items;
    }

    private static T Guard<T>(Func<T> parse)
    {
        try
        {
            return parse();
        }
        catch (Exception ex) when (ex is ProfileException or FormatException or WorkloadArgumentException)
        {
            throw new UsageException(ex.Message);
        }
    }

    /// <summary><c>--repeat</c>: N rounds, or <c>auto[:MAX]</c> (MAX rounds at most, added until settled).</summary>
    /// <exception cref="UsageException">Not a whole number in range, nor auto with an even MAX in range.</exception>
    public static (int Rounds, bool UntilSettled) ParseRepeat(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var valid = $"valid: a whole number {MinRepeat}–{MaxRepeat}, auto, or auto:MAX with MAX even, 2–{MaxRepeat}";
        var trimmed = text.Trim();
        if (trimmed.StartsWith("auto", StringComparison.OrdinalIgnoreCase))
        {
            var rest = trimmed[4..];
            if (rest.Length == 0)
            {
                return (SequentialRule.DefaultMaxRounds, true);
            }

            return rest[0] == ':' && int.TryParse(rest[1..], NumberStyles.None, CultureInfo.InvariantCulture, out var max) && max is >= 2 and <= MaxRepeat && max % 2 == 0
                ? (max, true)
                : throw new UsageException($"--repeat {text}: {valid} (MAX is even so that every look sees a balanced order).");
        }

        return int.TryParse(trimmed, NumberStyles.None, CultureInfo.InvariantCulture, out var rounds) && rounds is >= MinRepeat and <= MaxRepeat
            ? (rounds, false)
            : throw new UsageException($"--repeat must be between {MinRepeat} and {MaxRepeat}; got {text}. Or auto, or auto:MAX (MAX even, 2–{MaxRepeat}).");
    }
}
