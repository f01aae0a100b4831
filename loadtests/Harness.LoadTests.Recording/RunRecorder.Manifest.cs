namespace Harness.LoadTests.Recording;

// The run's settings as run.json keeps them: series are added, and values known only once a series has run are
// recorded, each change written at once so a crash keeps it.
public sealed partial class RunRecorder
{
    /// <summary>Adds a series that starts during the run; <c>run.json</c> is rewritten at once, so a crash keeps it.</summary>
    /// <exception cref="ArgumentException">The id is taken or is not a portable file name.</exception>
    public void AddSeries(SeriesInfo series)
    {
        ArgumentNullException.ThrowIfNull(series);
        lock (_manifestGate)
        {
            ThrowIfCompleted();
            ValidateNewSeries(series);
            _writer.CreateSeries(series.Id);
            _manifest = _manifest with { Series = [.. _manifest.Series, series] };
            _writer.WriteManifest(_manifest);
            _series[series.Id] = new SeriesState(series);
        }
    }

    /// <summary>
    /// Records in <c>run.json</c> how many requests the series completed (<see cref="SeriesInfo.TotalRequests"/>), as
    /// counted by the load engine, so a reader can tell how many a damaged series file lost. Call it once the series
    /// has ended; a later call replaces the number.
    /// </summary>
    /// <exception cref="ArgumentException">The run has no such series.</exception>
    public void EndSeries(string seriesId, long totalRequests)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(totalRequests);
        _ = Series(seriesId);
        lock (_manifestGate)
        {
            ThrowIfCompleted();
            _manifest = _manifest with
            {
                Series = [.. _manifest.Series.Select(s => s.Id == seriesId ? s with { TotalRequests = totalRequests } : s)],
            };
            _writer.WriteManifest(_manifest);
        }
    }

    /// <summary>
    /// Sets the series' <see cref="SeriesInfo.WarmUpSeconds"/> in <c>run.json</c> once it is known: a warm-up whose length
    /// only the load itself decides (a burst ends when its calls are done) is recorded like the rest of the series, and
    /// its length given when it has ended.
    /// </summary>
    /// <exception cref="ArgumentException">The run has no such series.</exception>
    public void SetWarmUp(string seriesId, double warmUpSeconds)
    {
        if (!double.IsFinite(warmUpSeconds) || warmUpSeconds < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(warmUpSeconds), warmUpSeconds, "Warm-up seconds must be a finite number, 0 or more.");
        }

        ReplaceSeries(seriesId, s => s with { WarmUpSeconds = warmUpSeconds });
    }

    /// <summary>
    /// Sets the series' ideal (<see cref="SeriesInfo.IdealLatencyMs"/>, <see cref="SeriesInfo.IdealThroughput"/>,
    /// <see cref="SeriesInfo.IdealMethod"/>) in <c>run.json</c> once it is known: an ideal measured on the service
    /// warmed by the series' own load, after that load, so that it is a floor rather than a cold service's time.
    /// </summary>
    /// <exception cref="ArgumentException">The run has no such series.</exception>
    public void SetIdeal(string seriesId, double? latencyMs, double? throughput, string? method)
    {
        if (latencyMs is { } ms && !(double.IsFinite(ms) && ms > 0))
        {
            throw new ArgumentOutOfRangeException(nameof(latencyMs), latencyMs, "An ideal latency must be a finite number above 0, or null.");
        }

        if (throughput is { } rate && !(double.IsFinite(rate) && rate > 0))
        {
            throw new ArgumentOutOfRangeException(nameof(throughput), throughput, "An ideal throughput must be a finite number above 0, or null.");
        }

        ReplaceSeries(seriesId, s => s with { IdealLatencyMs = latencyMs, IdealThroughput = throughput, IdealMethod = method });
    }

    private void ReplaceSeries(string seriesId, Func<SeriesInfo, SeriesInfo> change)
    {
        _ = Series(seriesId);
        lock (_manifestGate)
        {
            ThrowIfCompleted();
            _manifest = _manifest with { Series = [.. _manifest.Series.Select(s => s.Id == seriesId ? change(s) : s)] };
            _writer.WriteManifest(_manifest);
        }
    }

    private void ValidateNewSeries(SeriesInfo series)
    {
        ArgumentNullException.ThrowIfNull(series);
        RawRunFiles.ValidateSeriesId(series.Id);
        if (RunManifestRules.SeriesProblem(series) is { } problem)
        {
            throw new ArgumentException(problem, nameof(series));
        }

        if (_series.ContainsKey(series.Id))
        {
            throw new ArgumentException($"The run already has a series '{series.Id}'.", nameof(series));
        }
    }
}
