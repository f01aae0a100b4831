using System.CommandLine;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Cli;

/// <summary>The options of how a series is measured (<c>--backoff</c>), shared by <c>run</c>, <c>matrix</c> and <c>calibrate</c>.</summary>
internal sealed class MeasurementOptions
{
    /// <summary>A longer wait would keep a user from noticing that its target is back for most of a short series.</summary>
    private static readonly TimeSpan MaxBackoff = TimeSpan.FromMinutes(1);

    public Option<string> Backoff { get; } = new("--backoff")
    {
        Description = "After a connection failure, a virtual user waits INITIAL, doubling up to MAX, before its next request (INITIAL..MAX, e.g. 100ms..2s); off = retry at once.",
        DefaultValueFactory = _ => "100ms..2s",
    };

    public void AddTo(Command command) => command.Options.Add(Backoff);

    /// <exception cref="UsageException">A value does not parse or is out of range; the message names the option and the form.</exception>
    public MeasurementSettings Bind(ParseResult parse) => new(ParseBackoff(parse.GetValue(Backoff)!));

    /// <summary><c>INITIAL..MAX</c> (each a duration: <c>100ms</c>, <c>2s</c>), or <c>off</c> for none.</summary>
    /// <exception cref="UsageException">The text is neither, or INITIAL is not positive, or MAX is below INITIAL or above a minute.</exception>
    public static FailureBackoff? ParseBackoff(string text)
    {
        if (string.Equals(text.Trim(), "off", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        var parts = text.Split("..", 2, StringSplitOptions.TrimEntries);
        if (parts.Length != 2
            || !DurationJsonConverter.TryParse(parts[0], out var initial)
            || !DurationJsonConverter.TryParse(parts[1], out var max))
        {
            throw new UsageException($"--backoff '{text}': write INITIAL..MAX with durations, e.g. 100ms..2s (the default), or off.");
        }

        if (initial <= TimeSpan.Zero || max < initial || max > MaxBackoff)
        {
            throw new UsageException(
                $"--backoff '{text}': INITIAL must be above 0 and MAX between INITIAL and {DurationJsonConverter.Format(MaxBackoff)}, e.g. 100ms..2s; or off.");
        }

        return new FailureBackoff(initial, max);
    }
}
