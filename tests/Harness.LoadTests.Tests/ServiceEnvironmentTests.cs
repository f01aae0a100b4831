using System.Collections;
using Harness.LoadTests.Commands;
using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Tests;

/// <summary>HARNESS_SERVICE_* variables reach the local services, prefix removed, and the report's command line.</summary>
public sealed class ServiceEnvironmentTests
{
    [Fact]
    public void From_KeepsOnlyPrefixedVariables_WithThePrefixRemoved_SortedByName()
    {
        // Arrange
        var environment = new Hashtable
        {
            ["HARNESS_SERVICE_DOTNET_gcServer"] = "1",
            ["HARNESS_SERVICE_DOTNET_GCHeapHardLimit"] = "0x38000000",
            ["HARNESS_SERVICE_"] = "no name",
            ["DOTNET_GCConserveMemory"] = "9",
            ["harness_service_lowercase"] = "x",
        };

        // Act
        var variables = ServiceEnvironment.From(environment);

        // Assert
        Assert.Equal(
            [KeyValuePair.Create("DOTNET_GCHeapHardLimit", "0x38000000"), KeyValuePair.Create("DOTNET_gcServer", "1")],
            variables);
    }

    [Fact]
    public void CommandLine_PutsTheServiceVariablesFirst_SoThatPastingItRepeatsTheRun()
    {
        // Arrange
        var parse = HarnessCli.Create(Spectre.Console.AnsiConsole.Console).Parse(["--modes", "iocp"]);

        // Act
        var line = HarnessCli.CommandLine(parse, [KeyValuePair.Create("DOTNET_GCHeapHardLimit", "0x38000000")]);

        // Assert
        Assert.Equal("HARNESS_SERVICE_DOTNET_GCHeapHardLimit=0x38000000 harness run --modes iocp", line);
    }

    [Fact]
    public void CommandLine_NamesARunnerSettingOtherThanItsDefault_BeforeTheServiceVariables()
    {
        var parse = HarnessCli.Create(Spectre.Console.AnsiConsole.Console).Parse(["--modes", "iocp"]);

        var line = HarnessCli.CommandLine(
            parse, [KeyValuePair.Create("DOTNET_gcServer", "1")], [KeyValuePair.Create(ServiceEnvironment.InlineCompletions, "1")]);

        Assert.Equal("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 HARNESS_SERVICE_DOTNET_gcServer=1 harness run --modes iocp", line);
    }

    [Fact]
    public async Task LocalService_StartedWithAServiceVariable_RunsWithIt()
    {
        // Arrange: DOTNET_gcServer=1 switches the runtime to server GC, which the service names on /metrics.
        var environment = ServiceEnvironment.From(new Hashtable { ["HARNESS_SERVICE_DOTNET_gcServer"] = "1" });

        // Act
        await using var withVariable = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", [], CancellationToken.None, environment);
        await using var without = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", [], CancellationToken.None, []);
        using var http = new HttpClient();
        var withMetrics = await http.GetStringAsync(new Uri(withVariable.MetricsAddress, "metrics"));
        var withoutMetrics = await http.GetStringAsync(new Uri(without.MetricsAddress, "metrics"));

        // Assert
        Assert.Contains("gc=\"server\"", withMetrics, StringComparison.Ordinal);
        Assert.Contains("gc=\"workstation\"", withoutMetrics, StringComparison.Ordinal);
    }
}
