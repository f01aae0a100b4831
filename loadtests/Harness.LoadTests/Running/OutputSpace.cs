using System.Globalization;

namespace Harness.LoadTests.Running;

/// <summary>
/// How much disk a run needs, and how much its folder has: a run on a full disk should say so before the load, not
/// after it.
/// </summary>
internal static class OutputSpace
{
    /// <summary>
    /// Raw bytes per series-second: one line of <c>series/*.jsonl</c>. Measured at about 1.8 KB in format 2 (a latency
    /// histogram of ~350 characters and ~40 server counters); format 3 adds up to three more histograms, hence 2.5 KB.
    /// </summary>
    public const long RawBytesPerSeriesSecond = 2_500;

    /// <summary>The report per series-second: its chart data and its CSV row (measured at about 75 and 100 bytes).</summary>
    public const long ReportBytesPerSeriesSecond = 200;

    /// <summary>The report's page, whatever the run's length: the inlined chart library, script and styles (~240 KB).</summary>
    public const long ReportFixedBytes = 300_000;

    /// <summary>What a run of <paramref name="seriesCount"/> series of <paramref name="seriesDuration"/> writes, raw files and report.</summary>
    public static long EstimateRun(int seriesCount, TimeSpan seriesDuration)
    {
        var seriesSeconds = (long)Math.Ceiling(seriesCount * seriesDuration.TotalSeconds);
        return (seriesSeconds * RawBytesPerSeriesSecond) + EstimateReport(seriesSeconds);
    }

    /// <summary>What the report of a run with <paramref name="seriesSeconds"/> seconds of series in all writes.</summary>
    public static long EstimateReport(long seriesSeconds) => ReportFixedBytes + (seriesSeconds * ReportBytesPerSeriesSecond);

    /// <summary>Free bytes for an unprivileged writer on the file system holding <paramref name="path"/>; null when it cannot be read.</summary>
    public static long? FreeBytes(string path)
    {
        try
        {
            // On Unix DriveInfo takes any path and asks the file system holding it (statvfs).
            return new DriveInfo(Path.GetFullPath(path)).AvailableFreeSpace;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return null;
        }
    }

    /// <summary>The warning to print before a run, or null when <paramref name="directory"/> has room for <see cref="EstimateRun"/>.</summary>
    public static string? Warning(string directory, int seriesCount, TimeSpan seriesDuration)
    {
        if (FreeBytes(directory) is not { } free)
        {
            return null;
        }

        var needed = EstimateRun(seriesCount, seriesDuration);
        if (free >= needed)
        {
            return null;
        }

        return string.Create(
            CultureInfo.InvariantCulture,
            $"{directory} has {Format(free)} free, and this run writes about {Format(needed)} " +
            $"({seriesCount} series × {seriesDuration.TotalSeconds:0} s at ~{(RawBytesPerSeriesSecond + ReportBytesPerSeriesSecond) / 1000.0:0.#} KB per series-second, " +
            $"plus ~{ReportFixedBytes / 1000} KB for the report's page). The run stops when its raw files cannot be written.");
    }

    /// <summary>Bytes for people: <c>812 B</c>, <c>180 KiB</c>, <c>1.2 MiB</c>, <c>3.4 GiB</c>.</summary>
    public static string Format(long bytes) => bytes switch
    {
        < 1L << 10 => string.Create(CultureInfo.InvariantCulture, $"{bytes} B"),
        < 1L << 20 => string.Create(CultureInfo.InvariantCulture, $"{bytes / 1024.0:0} KiB"),
        < 1L << 30 => string.Create(CultureInfo.InvariantCulture, $"{bytes / (1024.0 * 1024):0.#} MiB"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{bytes / (1024.0 * 1024 * 1024):0.#} GiB"),
    };
}
