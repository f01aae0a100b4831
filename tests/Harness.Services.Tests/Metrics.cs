using System.Globalization;
using Harness.LoadTests.Hosting;

namespace Harness.Services.Tests;

/// <summary>Reads one sample from a service's /metrics.</summary>
internal static class Metrics
{
    /// <param name="sample">e.g. <c>harness_operations_executing_peak{operation="compute"}</c>.</param>
    public static Task<double> ReadAsync(this LocalProcess service, string sample) => ReadAsync(service.AdminAddress, sample);

    /// <inheritdoc cref="ReadAsync(LocalProcess, string)"/>
    public static Task<double> ReadAsync(this InProcessHarness harness, string sample) => ReadAsync(harness.AdminAddress, sample);

    private static async Task<double> ReadAsync(Uri adminAddress, string sample)
    {
        using var http = new HttpClient();
        var text = await http.GetStringAsync(new Uri(adminAddress, "/metrics"));
        foreach (var line in text.Split('\n'))
        {
            if (line.StartsWith(sample + " ", StringComparison.Ordinal))
            {
                return double.Parse(line.AsSpan(sample.Length + 1), CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException($"/metrics has no sample '{sample}':\n{text}");
    }
}
