using Harness.GrpcService;
using Harness.ServiceDefaults;
using Harness.SoapService;

namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// <c>--call</c> against the harness's own services, as any other service's: the gRPC one through the reflection it
/// now serves, the SOAP one through its WSDL (CoreWCF's shape: wrapper elements of anonymous types, <c>?singleWsdl</c>).
/// </summary>
[Trait("Category", "EndToEnd")]
public sealed class OwnServiceCallTests
{
    private static readonly string[] Quiet = ["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal", "--Scheduling:Mode=iocp"];

    [Fact]
    public async Task GrpcCompute_ByReflection_IsTheSeriesOfOperationsCompute()
    {
        await using var app = GrpcApp.Build([.. Quiet, "--Listen:AdminPort=0"]);
        await app.StartAsync();

        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={app.GetBoundAddress()}", "--call", "harness.v1.HarnessService/Compute", "--data", """{"iterations":1000}""", .. CallRuns.Short]);
        await app.StopAsync();

        CallRuns.AssertServedWithoutErrors(run, "grpc-compute-external");
        Assert.Contains("lone calls", run.Series!.IdealMethod, StringComparison.Ordinal);

        // The reply's bytes carry no time the runner reads; the harness-server-time-ms trailer does.
        CallRuns.AssertServerTimeRecorded(run);
    }

    [Fact]
    public async Task SoapCompute_FromItsSingleWsdl_IsServed()
    {
        await using var app = SoapApp.Build(Quiet);
        await app.StartAsync();

        var run = await CallRuns.RunAsync(
            ["--target", $"soap={app.GetBoundAddress()}HarnessService.svc", "--call", "Compute", "--data", """{"iterations":1000}""", .. CallRuns.Short]);
        await app.StopAsync();

        CallRuns.AssertServedWithoutErrors(run, "soap-compute-external");
        Assert.EndsWith("HarnessService.svc?singleWsdl", run.Series!.Parameters["wsdl"], StringComparison.Ordinal);
        Assert.Equal("http://tempuri.org/IHarnessService/Compute", run.Series.Parameters["soapAction"]);
    }
}
