using System.Globalization;
using Harness.LoadTests.Profiles;

namespace Harness.LoadTests.Containers;

internal enum FaultKind
{
    /// <summary>SIGKILL the container; with a duration, start it again afterwards.</summary>
    Kill,

    /// <summary>Freeze every process of the container (cgroup freezer) for the duration.</summary>
    Pause,

    /// <summary>Stop the container (SIGTERM, then SIGKILL after 1 s) and start it again.</summary>
    Restart,
}

/// <summary>
/// <c>--fault kind@T[+D]</c>: what happens to the service container of each series, <c>T</c> after the series starts,
/// so every mode meets the same fault at the same point of its load. <c>D</c> is how long it lasts.
/// </summary>
internal sealed record FaultPlan(FaultKind Kind, TimeSpan At, TimeSpan? Duration)
{
    public const string Syntax = "kill@T[+D], pause@T+D or restart@T, e.g. kill@10s+5s";

    /// <exception cref="FormatException">The text does not follow <see cref="Syntax"/>.</exception>
    public static FaultPlan Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var at = text.IndexOf('@', StringComparison.Ordinal);
        var kindText = at > 0 ? text[..at] : text;
        if (!Enum.TryParse<FaultKind>(kindText, ignoreCase: true, out var kind) || !Enum.IsDefined(kind) || kindText.Any(char.IsDigit))
        {
            throw new FormatException($"--fault '{text}': the kind must be kill, pause or restart ({Syntax}).");
        }

        var times = at > 0 ? text[(at + 1)..].Split('+') : [];
        if (times.Length is < 1 or > 2 || !DurationJsonConverter.TryParse(times[0], out var start) || start < TimeSpan.Zero)
        {
            throw new FormatException($"--fault '{text}': give the time after the series' start, e.g. {kindText}@10s ({Syntax}).");
        }

        TimeSpan? duration = null;
        if (times.Length == 2)
        {
            if (!DurationJsonConverter.TryParse(times[1], out var d) || d <= TimeSpan.Zero)
            {
                throw new FormatException($"--fault '{text}': '{times[1]}' is not a positive duration ({Syntax}).");
            }

            duration = d;
        }

        return (kind, duration) switch
        {
            (FaultKind.Pause, null) => throw new FormatException($"--fault '{text}': a pause needs its length, e.g. pause@10s+5s."),
            (FaultKind.Restart, not null) => throw new FormatException($"--fault '{text}': a restart has no length; write restart@{times[0]}."),
            _ => new FaultPlan(kind, start, duration),
        };
    }

    public override string ToString() =>
        string.Create(CultureInfo.InvariantCulture, $"{Kind.ToString().ToLowerInvariant()}@{At.TotalSeconds:0.###}s")
        + (Duration is { } d ? string.Create(CultureInfo.InvariantCulture, $"+{d.TotalSeconds:0.###}s") : "");
}
