namespace Harness.LoadTests.Tests.Calls;

/// <summary>What <c>--call</c> refuses from the command line alone, before it reaches any target.</summary>
public sealed class CallOptionsTests
{
    // A port nothing listens on: every refusal below comes before any connection.
    private const string Grpc = "grpc=http://127.0.0.1:9";
    private const string Soap = "soap=http://127.0.0.1:9/Service.svc";

    [Theory]
    [InlineData("--operations and --call do not go together", "--target", Grpc, "--call", "a.B/C", "--operations", "compute")]
    [InlineData("--call needs --target grpc=URL or --target soap=URL", "--call", "a.B/C")]
    [InlineData("--data goes with --call", "--target", Grpc, "--data", "{}")]
    [InlineData("a gRPC call is package.Service/Method", "--target", Grpc, "--call", "SayHello")]
    [InlineData("a soap target's call is an operation name", "--target", Soap, "--call", "a.B/C")]
    [InlineData("--wsdl is for a soap target", "--target", Grpc, "--call", "a.B/C", "--wsdl", "x.wsdl")]
    [InlineData("--proto is for a grpc target", "--target", Soap, "--call", "Add", "--proto", "x.proto")]
    [InlineData("--data and --data-file do not go together", "--target", Grpc, "--call", "a.B/C", "--data", "{}", "--data-file", "x.json")]
    [InlineData("--import-path goes with --proto", "--target", Grpc, "--call", "a.B/C", "--import-path", ".")]
    [InlineData("--metadata 'nokey' must be key=value", "--target", Grpc, "--call", "a.B/C", "--metadata", "nokey")]
    [InlineData("--metadata 'x-a': the value holds a line break", "--target", Soap, "--call", "Add", "--metadata", "x-a=1\r\nHost: elsewhere")]
    [InlineData("give --target options of one stack", "--target", Grpc, "--target", Soap, "--call", "a.B/C")]
    [InlineData("--data-file missing.json: cannot be read", "--target", Grpc, "--call", "a.B/C", "--data-file", "missing.json")]
    [InlineData("--data-feed missing.csv: cannot be read", "--target", Grpc, "--call", "a.B/C", "--data-feed", "missing.csv")]
    [InlineData("--data-feed-order goes with --data-feed", "--target", Grpc, "--call", "a.B/C", "--data-feed-order", "random")]
    [InlineData("--data-feed-order 'sideways': valid values are circular, random, shuffle.", "--target", Grpc, "--call", "a.B/C", "--data-feed", "x.csv", "--data-feed-order", "sideways")]
    [InlineData("--data-feed-seed goes with --data-feed and", "--target", Grpc, "--call", "a.B/C", "--data-feed-seed", "7")]
    [InlineData("--data-feed-seed goes with --data-feed-order random or shuffle", "--target", Grpc, "--call", "a.B/C", "--data-feed", "x.csv", "--data-feed-seed", "7")]
    [InlineData("--data-feed-seed '-1': takes a whole number from 0 to 18446744073709551615.", "--target", Grpc, "--call", "a.B/C", "--data-feed", "x.csv", "--data-feed-order", "shuffle", "--data-feed-seed", "-1")]
    [InlineData("--envelope and --data-feed do not go together", "--target", Soap, "--call", "Add", "--envelope", "x.xml", "--data-feed", "x.csv")]
    [InlineData("--soap-client 'fast': valid values are lean, wcf.", "--target", Soap, "--soap-client", "fast")]
    [InlineData("--grpc-client 'fast': valid values are lean, grpcnet.", "--target", Grpc, "--grpc-client", "fast")]
    [InlineData("--soap-client wcf is for the harness's own operations", "--target", Soap, "--call", "Add", "--soap-client", "wcf")]
    public async Task OptionsThatDoNotGoTogether_AreRefused_InOneLine(string expected, params string[] args)
    {
        var (exitCode, output) = await HarnessRun.InvokeAsync(["run", .. args]);

        Assert.Equal(2, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(expected, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task BadTemplate_IsRefused_NamingTheValidPlaceholders()
    {
        var (exitCode, output) = await HarnessRun.InvokeAsync("run", "--target", Grpc, "--call", "a.B/C", "--data", """{"id":{{sequence}}}""");

        Assert.Equal(2, exitCode);
        Assert.Contains("--data: '{{sequence}}' at character 7 is not a placeholder; valid placeholders are {{seq}}, {{user}}, {{rand MIN MAX}}, {{uuid}}, {{feed.COLUMN}} (with --data-feed).", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Calibrate_RefusesCall()
    {
        var (exitCode, output) = await HarnessRun.InvokeAsync("calibrate", "--target", Grpc, "--call", "a.B/C");

        Assert.Equal(2, exitCode);
        Assert.Contains("--call is for harness run", output, StringComparison.Ordinal);
    }
}
