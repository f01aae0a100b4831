using System.CommandLine;
using System.Globalization;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Common;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Commands;

/// <summary>
/// The options of how a series is measured (<c>--warm-up</c>, <c>--backoff</c>, <c>--timeout</c>, <c>--max-message-size</c>),
/// shared by <c>run</c>, <c>matrix</c> and <c>calibrate</c>.
/// </summary>
internal sealed class MeasurementOptions
{
    /// <summary>A longer wait would keep a user from noticing that its target is back for most of a short series.</summary>
    private static readonly TimeSpan MaxBackoff = TimeSpan.FromMinutes(1);

    private static readonly TimeSpan MaxWarmUp = TimeSpan.FromHours(1);

    // Below a millisecond no transport can answer; above an hour a call is not load, and the latency histograms end there.
    private static readonly TimeSpan MinTimeout = TimeSpan.FromMilliseconds(1);
    private static readonly TimeSpan MaxTimeout = TimeSpan.FromHours(1);

    public Option<string> Backoff { get; } = new("--backoff")
    {
        Description = "After a connection failure, a virtual user waits INITIAL, doubling up to MAX, before its next request (INITIAL..MAX, e.g. 100ms..2s); off = retry at once.",
        DefaultValueFactory = _ => "100ms..2s",
    };

    public Option<string?> WarmUp { get; } = new("--warm-up")
    {
        Description = "Load each series at its own shape for this long before measuring it (e.g. 10s; default 10s × --time-scale); 0 = no warm-up.",
    };

    public Option<string> Timeout { get; } = new("--timeout")
    {
        Description = "Give up a call after this long and count it as a failure (timeout; gRPC's DEADLINE_EXCEEDED, also sent as grpc-timeout), e.g. 3s or 1500ms; 1ms to 1h.",
        DefaultValueFactory = _ => "60s",
    };

    public Option<string> MaxMessageSize { get; } = new("--max-message-size")
    {
        Description = "The largest reply a client takes: a gRPC message or a SOAP body; a larger one fails its call (RESOURCE_EXHAUSTED, response-too-large), e.g. 4MiB or 64k; 1KiB to 1GiB. Not given: 4MiB, and the WCF client its own 64KiB.",
        DefaultValueFactory = _ => "4MiB",
    };

    public void AddTo(Command command)
    {
        command.Options.Add(WarmUp);
        command.Options.Add(Backoff);
        command.Options.Add(Timeout);
        command.Options.Add(MaxMessageSize);
    }

    /// <param name="timeScale">The run's <c>--time-scale</c>, which scales the default warm-up (a warm-up given explicitly is taken as written).</param>
    /// <exception cref="UsageException">A value does not parse or is out of range; the message names the option and the form.</exception>
    public MeasurementSettings Bind(ParseResult parse, double timeScale) => new(
        ParseBackoff(parse.GetValue(Backoff)!),
        parse.GetValue(WarmUp) is { } warmUp ? ParseWarmUp(warmUp) : MeasurementSettings.DefaultWarmUp * timeScale,
        ParseTimeout(parse.GetValue(Timeout)!))
    {
        // Given or not matters: a client's own default applies when not (the WCF client's 64 KiB).
        GivenMaxMessageSize = parse.GetResult(MaxMessageSize) is { Implicit: false } given
            ? ParseMaxMessageSize(given.GetValueOrDefault<string>()!)
            : null,
    };

    /// <summary>
    /// The largest reply a client takes, in bytes: a whole number with an optional binary unit (<c>KiB</c>, <c>MiB</c>,
    /// <c>GiB</c>, or <c>k</c>, <c>m</c>, <c>g</c> as <c>--memory</c> writes them), from 1 KiB to 1 GiB.
    /// </summary>
    /// <exception cref="UsageException">Not a size, or outside 1 KiB .. 1 GiB.</exception>
    public static int ParseMaxMessageSize(string text)
    {
        const string Range = "1KiB to 1GiB";
        if (!MatrixCommandOptions.TryParseBytes(text, out var size))
        {
            throw new UsageException($"--max-message-size '{text}' is not a size from {Range}; write e.g. 4MiB (the default), 64KiB or 1048576 (bytes).");
        }

        return size is >= MessageSizes.Min and <= MessageSizes.Max
            ? (int)size
            : throw new UsageException(string.Create(
                CultureInfo.InvariantCulture, $"--max-message-size '{text}' is out of range: the largest reply is from {Range} ({MessageSizes.Min:N0} to {MessageSizes.Max:N0} bytes)."));
    }

    /// <summary>A call's timeout, from a millisecond to an hour; not scaled by <c>--time-scale</c> (a server's slowness is not the profile's).</summary>
    /// <exception cref="UsageException">Not a duration, or outside 1 ms .. 1 h.</exception>
    public static TimeSpan ParseTimeout(string text)
    {
        var range = $"{DurationJsonConverter.Format(MinTimeout)} to {DurationJsonConverter.Format(MaxTimeout)}";
        if (text.TrimStart().StartsWith('-') || !DurationJsonConverter.TryParse(text, out var timeout))
        {
            throw new UsageException($"--timeout '{text}' is not a duration from {range}; write e.g. 60s (the default), 3s or 1500ms.");
        }

        return timeout >= MinTimeout && timeout <= MaxTimeout
            ? timeout
            : throw new UsageException($"--timeout '{text}' is out of range: a call's timeout is from {range}.");
    }

    /// <summary>A duration from 0 (none) to an hour.</summary>
    /// <exception cref="UsageException">Negative, not a duration, or longer than an hour.</exception>
    public static TimeSpan ParseWarmUp(string text)
    {
        if (text.TrimStart().StartsWith('-'))
        {
            throw new UsageException($"--warm-up '{text}' is negative; give 0 (no warm-up) or a duration such as 10s.");
        }

        if (!DurationJsonConverter.TryParse(text, out var warmUp))
        {
            throw new UsageException($"--warm-up '{text}' is not a duration; write e.g. 10s, 1500ms or 1m, or 0 for no warm-up.");
        }

        return warmUp <= MaxWarmUp
            ? warmUp
            : throw new UsageException($"--warm-up '{text}' is longer than {DurationJsonConverter.Format(MaxWarmUp)}; a warm-up readies a service, it is not a soak.");
    }

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
