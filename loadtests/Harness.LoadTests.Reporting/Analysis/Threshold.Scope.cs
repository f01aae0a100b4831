using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

// The scope of the threshold language: which series a threshold judges (a series id, or key=value pairs).
internal sealed partial record Threshold
{
    private static readonly string[] ScopeKeys = ["stack", "operation", "mode", "model", "id"];

    /// <summary>Whether the threshold's scope includes this series (the <c>co-</c> metrics also need an open-model series).</summary>
    public bool AppliesTo(SeriesInfo series)
    {
        ArgumentNullException.ThrowIfNull(series);
        // A repeated mode's repetitions answer to its id without the repetition number too (grpc-compute-iocp: covers -1, -2…).
        if (SeriesId is not null && !string.Equals(SeriesId, series.Id, StringComparison.OrdinalIgnoreCase)
            && !string.Equals(SeriesId, ModeComparison.ModeIdOf(series), StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        if (Intended && !string.Equals(series.Model, "open", StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        return Filters.All(f => string.Equals(f.Value, FieldOf(series, f.Key), StringComparison.OrdinalIgnoreCase));
    }

    private static (string? SeriesId, IReadOnlyDictionary<string, string> Filters) ParseScope(string expression, string? scope)
    {
        var filters = new Dictionary<string, string>(StringComparer.Ordinal);
        if (scope is null)
        {
            return (null, filters);
        }

        if (scope.Length == 0)
        {
            throw Error(expression, "the scope before ':' is empty");
        }

        if (!scope.Contains('=', StringComparison.Ordinal))
        {
            if (scope.Any(char.IsWhiteSpace) || scope.Contains(',', StringComparison.Ordinal))
            {
                throw Error(expression, $"scope '{scope}' is neither a series id nor key=value pairs");
            }

            return (scope, filters);
        }

        foreach (var part in scope.Split(',', StringSplitOptions.TrimEntries))
        {
            var equals = part.IndexOf('=', StringComparison.Ordinal);
            var key = equals < 0 ? part : part[..equals].Trim().ToLowerInvariant();
            var value = equals < 0 ? string.Empty : part[(equals + 1)..].Trim();
            if (equals < 0 || !ScopeKeys.Contains(key) || value.Length == 0)
            {
                throw Error(expression, $"scope part '{part}' is not key=value with a key of {string.Join(", ", ScopeKeys)}");
            }

            if (!filters.TryAdd(key, value))
            {
                throw Error(expression, $"scope key '{key}' is given twice");
            }
        }

        return (null, filters);
    }

    internal static string? FieldOf(SeriesInfo series, string key) => key switch
    {
        "stack" => series.Stack,
        "operation" => series.Operation,
        "mode" => series.Mode,
        "model" => series.Model,
        "id" => series.Id,
        _ => null,
    };
}
