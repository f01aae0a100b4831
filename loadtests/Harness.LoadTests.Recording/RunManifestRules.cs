namespace Harness.LoadTests.Recording;

/// <summary>The rules a series of <c>run.json</c> keeps, checked by the recorder on the way in and by the reader on the way out.</summary>
internal static class RunManifestRules
{
    /// <summary>What is wrong with the series' numbers, or null.</summary>
    public static string? SeriesProblem(SeriesInfo series) => series switch
    {
        { WarmUpSeconds: < 0 or double.NaN or double.PositiveInfinity } =>
            $"series '{series.Id}': warmUpSeconds must be a finite number of seconds, 0 or more, not {series.WarmUpSeconds}.",
        { Repetition: < 0 } => $"series '{series.Id}': repetition must be 0 (not repeated) or a 1-based number, not {series.Repetition}.",
        { TotalRequests: < 0 } => $"series '{series.Id}': totalRequests cannot be negative ({series.TotalRequests}).",
        _ => null,
    };
}
