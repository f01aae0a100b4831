using Harness.LoadTests.Diagnostics;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Tests;

public sealed class TargetParsingTests
{
    [Fact]
    public void Soap_IsScrapedAtItsOwnAddress()
    {
        var target = ExternalTargets.Parse("soap=http://10.0.0.5:5081", "k8s-iocp");

        Assert.Equal(new ServiceTarget("soap", "k8s-iocp", new Uri("http://10.0.0.5:5081"), new Uri("http://10.0.0.5:5081")) { MetricsGuessed = true }, target);
    }

    [Fact]
    public void MetricsGiven_IsNotAGuess()
    {
        Assert.False(ExternalTargets.Parse("grpc=http://host:5082,metrics=http://host:9000", "x").MetricsGuessed);
    }

    [Fact]
    public void Soap_IsScrapedWhereMetricsSays()
    {
        // compose, matrix and Kubernetes point it at the service's Listen__MetricsPort, which a starved pool cannot silence.
        var target = ExternalTargets.Parse("soap=http://soap-iocp:5081,metrics=http://soap-iocp:5084,mode=iocp", "x");

        Assert.Equal(new ServiceTarget("soap", "iocp", new Uri("http://soap-iocp:5081"), new Uri("http://soap-iocp:5084")), target);
    }

    [Fact]
    public void Grpc_IsScrapedAtTheNextPortUnlessToldOtherwise()
    {
        Assert.Equal(new Uri("http://host:5083"), ExternalTargets.Parse("grpc=http://host:5082", "x").MetricsAddress);
        Assert.Equal(new Uri("http://host:9000"), ExternalTargets.Parse("grpc=http://host:5082,metrics=http://host:9000", "x").MetricsAddress);
    }

    [Fact]
    public void Mode_OfATarget_OverridesTheLabel()
    {
        var target = ExternalTargets.Parse("grpc=http://grpc-iocp:5082,mode=iocp,metrics=http://grpc-iocp:5083", "external");

        Assert.Equal(new ServiceTarget("grpc", "iocp", new Uri("http://grpc-iocp:5082"), new Uri("http://grpc-iocp:5083")), target);
    }

    [Theory]
    [InlineData("soap=http://h:1,mode=")]
    [InlineData("soap=http://h:1,mode=a/b")]
    [InlineData("rest=http://host:1")]
    [InlineData("grpc=host:5082")]
    [InlineData("grpc")]
    [InlineData("grpc=http://host:5082,admin=http://host:1")]
    [InlineData("soap=http://host:5081,metrics=host:5084")]
    [InlineData("grpc=http://host:5082,pid=0")]
    [InlineData("grpc=http://host:5082,pid=12ab")]
    [InlineData("grpc=http://host:5082,diag=relative/socket")]
    public void Invalid_SaysWhatIsAccepted(string value)
    {
        var ex = Assert.Throws<FormatException>(() => ExternalTargets.Parse(value, "x"));

        Assert.Contains($"'{value}'", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnUnknownKey_IsRefusedNamingEveryValidKey()
    {
        var ex = Assert.Throws<FormatException>(() => ExternalTargets.Parse("grpc=http://host:5082,process=42", "x"));

        Assert.Contains("'process=42'", ex.Message, StringComparison.Ordinal);
        foreach (var key in new[] { "metrics=", "mode=", "pid=", "diag=" })
        {
            Assert.Contains(key, ex.Message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("soap")]
    [InlineData("grpc")]
    public void Pid_NamesTheRuntimeToAttachTo_OnEitherStack(string stack)
    {
        var target = ExternalTargets.Parse($"{stack}=http://host:5082,pid=4242,mode=m", "x");

        Assert.Equal(4242, target.Runtime?.ProcessId);
        Assert.Null(target.Runtime?.SocketPath);
        Assert.Equal("m", target.Mode);
    }

    [Fact]
    public void Diag_NamesTheRuntimesSocket()
    {
        var socket = Path.Combine(HarnessRun.TempFolder(), "dotnet-diagnostic-1-1-socket");
        File.WriteAllText(socket, "");

        var target = ExternalTargets.Parse($"grpc=http://host:5082,diag={socket}", "x");

        Assert.Equal(RuntimeEndpoint.ForSocket(socket), target.Runtime);
        Assert.Null(target.Runtime?.ProcessId);
    }

    [Fact]
    public void Diag_WithNoSocketThere_IsRefusedSayingWhereOneIs()
    {
        var ex = Assert.Throws<FormatException>(() => ExternalTargets.Parse("grpc=http://host:5082,diag=/nonexistent/dotnet-diagnostic-1-1-socket", "x"));

        Assert.Contains("no socket at '/nonexistent/dotnet-diagnostic-1-1-socket'", ex.Message, StringComparison.Ordinal);
        Assert.Contains("/tmp/dotnet-diagnostic-*", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void PidAndDiag_Together_AreRefused()
    {
        var ex = Assert.Throws<FormatException>(() => ExternalTargets.Parse("grpc=http://host:5082,pid=1,pid=2", "x"));

        Assert.Contains("one of pid= and diag=", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void NoPidOrDiag_AttachesToNothing()
    {
        Assert.Null(ExternalTargets.Parse("grpc=http://host:5082", "x").Runtime);
    }
}
