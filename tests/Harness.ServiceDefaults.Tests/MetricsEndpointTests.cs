using System.Reflection;
using Harness.Metrics;
using Harness.SoapService;

namespace Harness.ServiceDefaults.Tests;

public sealed class MetricsEndpointTests
{
    [Fact]
    public async Task Metrics_OfASampleService_PublishesEveryServiceFamilyOfMetricNames()
    {
        // Arrange: every family a sample service writes (the stub's, the containers', the load runner's and the coordinator's
        // come from elsewhere, and harness_runtime_* from the runner's EventPipe session on a target's runtime).
        var families = typeof(MetricNames).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(f => f.IsLiteral && f.FieldType == typeof(string))
            .Select(f => (string)f.GetRawConstantValue()!)
            .Where(name => (name.StartsWith("harness_", StringComparison.Ordinal) && !name.StartsWith("harness_stub_", StringComparison.Ordinal)
                    && !name.StartsWith(MetricNames.RunnerPrefix, StringComparison.Ordinal) && !name.StartsWith(MetricNames.LoadPrefix, StringComparison.Ordinal)
                    && !name.StartsWith(MetricNames.CoordinatorPrefix, StringComparison.Ordinal) && !name.StartsWith("harness_runtime_", StringComparison.Ordinal))
                || name.StartsWith("process_", StringComparison.Ordinal) || name.StartsWith("dotnet_gc_", StringComparison.Ordinal))
            .ToList();
        await using var app = SoapApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal", "--Scheduling:Mode=iocp"]);
        await app.StartAsync();
        using var http = new HttpClient();

        // Act
        var text = await http.GetStringAsync(new Uri(app.GetBoundAddress(), "/metrics"));

        // Assert
        Assert.Equal(23, families.Count);
        Assert.All(families, name => Assert.Contains($"\n# TYPE {name} ", "\n" + text, StringComparison.Ordinal));
        Assert.Contains(MetricNames.WithLabel(MetricNames.OperationsExecuting, MetricNames.OperationLabel, MetricNames.CallThirdPartyOperation) + " 0\n", text, StringComparison.Ordinal);
        Assert.Contains($"\n{MetricNames.Processors} {Environment.ProcessorCount}\n", text, StringComparison.Ordinal);
        Assert.Contains($"\n{MetricNames.CpuLimitCores} {(CgroupCpuLimit.Read() ?? MetricNames.NoCpuLimit).ToString(System.Globalization.CultureInfo.InvariantCulture)}\n", text, StringComparison.Ordinal);
        Assert.Contains($"\n{MetricNames.WithLabel(MetricNames.SchedulerConcurrencyLimit, MetricNames.ModeLabel, "iocp")} {Environment.ProcessorCount}\n", text, StringComparison.Ordinal);
        await app.StopAsync();
    }
}
