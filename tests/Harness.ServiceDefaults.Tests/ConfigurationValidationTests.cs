using Harness.SoapService;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Harness.ServiceDefaults.Tests;

/// <summary>A bad setting stops the service at start with a message naming the variable and the valid values.</summary>
public sealed class ConfigurationValidationTests
{
    [Theory]
    [InlineData("--Scheduling:Mode=fast", "Scheduling__Mode 'fast' is not a scheduling mode; valid values: threadpool, iocp, custompool.")]
    [InlineData("--Scheduling:Mode=", "Scheduling__Mode '' is not a scheduling mode; valid values: threadpool, iocp, custompool.")]
    [InlineData("--Scheduling:Mode=1", "Scheduling__Mode '1' is not a scheduling mode; valid values: threadpool, iocp, custompool.")]
    [InlineData("--Scheduling:IocpConcurrency=-1", "Scheduling__IocpConcurrency must be 0 (= processor count) or more; got -1.")]
    [InlineData("--Scheduling:CustomPoolMaxThreads=0", "Scheduling__CustomPoolMaxThreads must be between max(1, CustomPoolMinThreads) and 32767; got 0.")]
    [InlineData("--Workloads:MaxFanout=0", "Workloads__MaxFanout must be between 1 and 10000; got 0.")]
    [InlineData("--ComputeWork:Factor=0.5", "ComputeWork__Factor must be between 1.0 and 10.0 (a benchmarking aid: the Compute work per requested iteration); got 0.5.")]
    [InlineData("--ComputeWork:Factor=10.5", "ComputeWork__Factor must be between 1.0 and 10.0 (a benchmarking aid: the Compute work per requested iteration); got 10.5.")]
    [InlineData("--ThirdParty:BaseAddress=ftp://stub/", "ThirdParty__BaseAddress must be an absolute http(s) URI; got 'ftp://stub/'.")]
    [InlineData("--Listen:Address=localhost", "Listen__Address must be an IP address such as 127.0.0.1 or 0.0.0.0; got 'localhost'.")]
    [InlineData("--Http2:MaxStreamsPerConnection=0", "Http2__MaxStreamsPerConnection must be 1 or more (Kestrel's default is 100); got 0.")]
    [InlineData("--Listen:AdminPort=70000", "Listen__AdminPort must be between 0 and 65535 and differ from Listen__Port; got 70000.")]
    [InlineData("--Listen:MetricsPort=-1", "Listen__MetricsPort must be between 0 and 65535 and differ from Listen__Port and Listen__AdminPort; got -1.")]
    public async Task Start_WithAnInvalidSetting_FailsNamingTheVariable(string setting, string expected)
    {
        // Act: some options are first read while the app is built, the rest when it starts; either stops it.
        var ex = await Assert.ThrowsAsync<OptionsValidationException>(async () =>
        {
            await using var app = SoapApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal", setting]);
            await app.StartAsync();
        });

        // Assert
        Assert.Contains(expected, ex.Failures);
    }

    [Fact]
    public void Build_WithAnUnknownLogFormat_FailsNamingTheVariable()
    {
        var ex = Assert.Throws<OptionsValidationException>(() => SoapApp.Build(["--Listen:Port=0", "--Log:Format=xml"]));

        Assert.Contains("Log__Format 'xml' is not a log format; valid values: text, json.", ex.Failures);
    }

    [Theory]
    [InlineData("threadpool")]
    [InlineData("IOCP")]
    [InlineData("CustomPool")]
    public async Task Start_WithAnyValidModeSpelling_Succeeds(string mode)
    {
        await using var app = SoapApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal", $"--Scheduling:Mode={mode}"]);

        await app.StartAsync();

        Assert.Equal(mode.ToLowerInvariant(), app.Services.GetRequiredService<ServiceIdentity>().ModeName);
        await app.StopAsync();
    }
}
