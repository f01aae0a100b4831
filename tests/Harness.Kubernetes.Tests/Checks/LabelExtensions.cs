namespace Harness.Kubernetes.Tests.Checks;

public static class LabelExtensions
{
    /// <summary>A label's value, or null when the labels or the key are missing.</summary>
    public static string? Value(this IDictionary<string, string>? labels, string key) =>
        labels is not null && labels.TryGetValue(key, out var value) ? value : null;
}
