using System.Globalization;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;
using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Profiles;

/// <summary>
/// A load shape kept in JSON (<c>Profiles/*.json</c>, or a file of the user's): a name, a model and stages.
/// <see cref="ToSimulations"/> turns it into the engine's stages.
/// </summary>
internal sealed record LoadProfile(string Name, string Description, IReadOnlyList<StageSpec> Stages)
{
    private static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    /// <summary>The profiles shipped with the harness, by name.</summary>
    public static IReadOnlyList<string> BuiltInNames { get; } = ["quick", "ramp", "step", "constant", "inject", "soak", "burst", "aa"];

    public bool IsOpenModel => Stages.Any(s => s.IsOpenModel);

    /// <summary>A burst ends when its calls are done, so <see cref="Duration"/> is only an upper bound.</summary>
    public bool HasBursts => Stages.Any(s => s.Kind == StageKind.IterationsForConstant);

    /// <summary>The most virtual users the profile runs at once; null for an open-model profile.</summary>
    [JsonIgnore]
    public int? PeakUsers => IsOpenModel ? null : ToSimulations().Max(s => s switch
    {
        LoadSimulation.KeepConstant k => k.Copies,
        LoadSimulation.RampingConstant r => r.Copies,
        LoadSimulation.IterationsForConstant b => b.Copies,
        _ => 0,
    });

    public TimeSpan Duration => ToSimulations().Aggregate(TimeSpan.Zero, (total, s) => total + s.During);

    /// <summary>A built-in profile by name, a JSON file by path, or the profile's JSON itself (from <c>--config</c>'s inline profile).</summary>
    /// <exception cref="ProfileException">Unknown name, unreadable file or invalid content; the message says which.</exception>
    public static LoadProfile Load(string nameOrPath)
    {
        if (nameOrPath.TrimStart().StartsWith('{'))
        {
            return Parse(nameOrPath, "(inline)");
        }

        if (BuiltInNames.Contains(nameOrPath, StringComparer.OrdinalIgnoreCase))
        {
            var resource = $"Harness.LoadTests.Profiles.{nameOrPath.ToLowerInvariant()}.json";
            using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream(resource)
                ?? throw new InvalidOperationException($"The built-in profile {resource} is not embedded.");
            using var reader = new StreamReader(stream);
            return Parse(reader.ReadToEnd(), nameOrPath);
        }

        if (!File.Exists(nameOrPath))
        {
            throw new ProfileException(
                $"--profile '{nameOrPath}' is neither a built-in profile ({string.Join(", ", BuiltInNames)}) nor a JSON file that exists.");
        }

        return Parse(File.ReadAllText(nameOrPath), nameOrPath);
    }

    /// <param name="json">The profile.</param>
    /// <param name="source">Its name or file, for messages.</param>
    /// <param name="cores">What <c>copiesPerCore</c> multiplies; this machine's processor count when null.</param>
    /// <exception cref="ProfileException">The JSON does not describe a valid profile.</exception>
    public static LoadProfile Parse(string json, string source, int? cores = null)
    {
        LoadProfile? profile;
        try
        {
            profile = JsonSerializer.Deserialize<LoadProfile>(json, Json);
        }
        catch (JsonException ex)
        {
            throw new ProfileException($"Profile {source}: {ex.Message}");
        }

        if (profile is null || string.IsNullOrWhiteSpace(profile.Name) || profile.Stages is not { Count: > 0 })
        {
            throw new ProfileException($"Profile {source}: needs a name and at least one stage.");
        }

        for (var i = 0; i < profile.Stages.Count; i++)
        {
            profile.Stages[i].Validate($"Profile {source}, stage {i + 1}");
        }

        var kinds = profile.Stages.Where(s => s.Kind != StageKind.Pause).Select(s => s.IsOpenModel).Distinct().Count();
        if (kinds > 1)
        {
            throw new ProfileException($"Profile {source}: mixes closed-model stages (users) and open-model stages (inject); use one model per profile.");
        }

        // Resolved here, so the profile recorded with a run says how many copies it ran.
        return profile with { Stages = [.. profile.Stages.Select(s => s.PerCore(cores ?? Environment.ProcessorCount))] };
    }

    public string ToJson() => JsonSerializer.Serialize(this, Json);

    /// <summary>Every duration multiplied by <paramref name="factor"/> (0 &lt; factor); the shape is kept.</summary>
    public LoadProfile Scale(double factor)
    {
        if (!(factor > 0) || double.IsInfinity(factor))
        {
            throw new ProfileException($"--time-scale must be a positive number; got {factor.ToString(CultureInfo.InvariantCulture)}.");
        }

        return this with { Stages = [.. Stages.Select(s => s.ScaleTime(factor))] };
    }

    /// <summary>Stretches or shrinks the profile so that it lasts <paramref name="duration"/> (e.g. a soak's hours).</summary>
    public LoadProfile WithDuration(TimeSpan duration)
    {
        if (duration <= TimeSpan.Zero)
        {
            throw new ProfileException($"--duration must be positive; got {duration}.");
        }

        return Scale(duration / Duration);
    }

    /// <summary>Scales every user count so the profile's peak becomes <paramref name="peakUsers"/>.</summary>
    public LoadProfile WithPeakUsers(int peakUsers)
    {
        if (IsOpenModel)
        {
            throw new ProfileException($"--users applies to closed-model profiles; '{Name}' injects an arrival rate, use --rate.");
        }

        if (peakUsers < 1)
        {
            throw new ProfileException($"--users must be 1 or more; got {peakUsers}.");
        }

        var factor = (double)peakUsers / Math.Max(1, PeakUsers ?? 0);
        return this with { Stages = [.. Stages.Select(s => s.ScaleLoad(factor))] };
    }

    /// <summary>Scales every arrival rate so the profile's peak becomes <paramref name="peakRate"/> per interval.</summary>
    public LoadProfile WithPeakRate(int peakRate)
    {
        if (!IsOpenModel)
        {
            throw new ProfileException($"--rate applies to open-model profiles; '{Name}' runs virtual users, use --users.");
        }

        if (peakRate < 1)
        {
            throw new ProfileException($"--rate must be 1 or more; got {peakRate}.");
        }

        var peak = Stages.Max(s => s.Rate ?? 0);
        var factor = (double)peakRate / Math.Max(1, peak);
        return this with { Stages = [.. Stages.Select(s => s.ScaleLoad(factor))] };
    }

    public IReadOnlyList<LoadSimulation> ToSimulations() => [.. Stages.SelectMany(s => s.ToSimulations())];
}

internal enum StageKind
{
    RampingConstant,
    KeepConstant,
    Inject,
    RampingInject,
    Pause,

    /// <summary>The ramp of the published experiment on blocking calls (S2): <c>start</c> users, then <c>add</c> more every <c>every</c>, until <c>during</c> has passed.</summary>
    Steps,

    /// <summary>
    /// A burst (the published CPU-bound experiment's shape, S0; NBomber 5's name): <c>copies</c> users start at once, each makes <c>iterations</c>
    /// requests one after another, then stops; the stage ends when all are done, or at <c>during</c>, an upper bound.
    /// </summary>
    IterationsForConstant,
}

/// <summary>One stage as written in a profile. Durations accept <c>45s</c>, <c>8m</c>, <c>2h</c>, <c>1500ms</c> or <c>hh:mm:ss</c>.</summary>
/// <param name="CopiesPerCore">Instead of <c>copies</c>: that many users per processor of the machine the runner runs on, resolved when the profile is read.</param>
internal sealed record StageSpec(
    [property: JsonConverter(typeof(JsonStringEnumConverter<StageKind>))] StageKind Kind,
    [property: JsonConverter(typeof(DurationJsonConverter))] TimeSpan During,
    int? Copies = null,
    int? Rate = null,
    [property: JsonConverter(typeof(DurationJsonConverter))] TimeSpan? Interval = null,
    int? Start = null,
    int? Add = null,
    [property: JsonConverter(typeof(DurationJsonConverter))] TimeSpan? Every = null,
    int? Iterations = null,
    int? CopiesPerCore = null)
{
    public bool IsOpenModel => Kind is StageKind.Inject or StageKind.RampingInject;

    internal void Validate(string where)
    {
        if (During <= TimeSpan.Zero)
        {
            throw new ProfileException($"{where}: 'during' must be positive.");
        }

        if (CopiesPerCore is not null && Kind is not (StageKind.RampingConstant or StageKind.KeepConstant or StageKind.IterationsForConstant))
        {
            throw new ProfileException($"{where}: 'copiesPerCore' applies to RampingConstant, KeepConstant and IterationsForConstant, not {Kind}.");
        }

        if (CopiesPerCore is not null && Copies is not null)
        {
            throw new ProfileException($"{where}: give 'copies' or 'copiesPerCore', not both.");
        }

        var copies = Copies ?? CopiesPerCore;
        switch (Kind)
        {
            case StageKind.RampingConstant or StageKind.KeepConstant when copies is null or < 0:
                throw new ProfileException($"{where}: {Kind} needs 'copies' (0 or more users) or 'copiesPerCore'.");
            case StageKind.IterationsForConstant when copies is null or < 1 || Iterations is null or < 1:
                throw new ProfileException($"{where}: IterationsForConstant needs 'copies' (1 or more users) or 'copiesPerCore', and 'iterations' (1 or more requests per user); 'during' is its upper bound.");
            case StageKind.Inject or StageKind.RampingInject when Rate is null or < 0:
                throw new ProfileException($"{where}: {Kind} needs 'rate' (0 or more requests per interval).");
            case StageKind.Inject or StageKind.RampingInject when Interval is not { } interval || interval <= TimeSpan.Zero:
                throw new ProfileException($"{where}: {Kind} needs a positive 'interval'.");
            case StageKind.Steps when Start is null or < 0 || Add is null or < 0 || Every is not { } every || every <= TimeSpan.Zero:
                throw new ProfileException($"{where}: Steps needs 'start' and 'add' (0 or more users) and a positive 'every'.");
        }
    }

    /// <summary><c>copiesPerCore</c> turned into <c>copies</c> for a machine of <paramref name="cores"/> processors.</summary>
    internal StageSpec PerCore(int cores) =>
        CopiesPerCore is { } perCore ? this with { Copies = perCore * cores, CopiesPerCore = null } : this;

    internal StageSpec ScaleTime(double factor) => this with
    {
        During = During * factor,
        Every = Every * factor,
    };

    internal StageSpec ScaleLoad(double factor)
    {
        // A non-zero load never scales down to nothing.
        int? Scaled(int? value) => value is { } v ? (v == 0 ? 0 : Math.Max(1, (int)Math.Round(v * factor))) : null;
        return this with { Copies = Scaled(Copies), Rate = Scaled(Rate), Start = Scaled(Start), Add = Scaled(Add) };
    }

    internal IEnumerable<LoadSimulation> ToSimulations()
    {
        switch (Kind)
        {
            case StageKind.RampingConstant:
                yield return new LoadSimulation.RampingConstant(Copies!.Value, During);
                break;
            case StageKind.KeepConstant:
                yield return new LoadSimulation.KeepConstant(Copies!.Value, During);
                break;
            case StageKind.Inject:
                yield return new LoadSimulation.Inject(Rate!.Value, Interval!.Value, During);
                break;
            case StageKind.RampingInject:
                yield return new LoadSimulation.RampingInject(Rate!.Value, Interval!.Value, During);
                break;
            case StageKind.IterationsForConstant:
                yield return new LoadSimulation.IterationsForConstant(Copies!.Value, Iterations!.Value, During);
                break;
            case StageKind.Pause:
                yield return new LoadSimulation.Pause(During);
                break;
            case StageKind.Steps:
                var users = Start!.Value;
                var left = During;
                while (left > TimeSpan.Zero)
                {
                    var step = left < Every!.Value ? left : Every.Value;
                    yield return new LoadSimulation.KeepConstant(users, step);
                    left -= step;
                    users += Add!.Value;
                }

                break;
        }
    }
}

internal sealed class ProfileException(string message) : Exception(message);
