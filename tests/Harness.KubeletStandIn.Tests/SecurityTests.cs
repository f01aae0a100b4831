using Harness.KubeletStandIn.Pods;
using Harness.KubeletStandIn.Tests.Tooling;
using k8s.Models;

namespace Harness.KubeletStandIn.Tests;

public sealed class SecurityTests
{
    private const string Restricted = """
        apiVersion: batch/v1
        kind: Job
        metadata: {name: runner}
        spec:
          template:
            spec:
              restartPolicy: Never
              terminationGracePeriodSeconds: 5
              securityContext: {runAsNonRoot: true, runAsUser: 1654, runAsGroup: 1654, fsGroup: 2000, supplementalGroups: [3000], seccompProfile: {type: RuntimeDefault}}
              containers:
                - name: runner
                  image: harness/runner:local
                  command: [bash, -c]
                  args: ["echo $(GREETING) $$HOME $(NOPE)"]
                  workingDir: /work
                  env: [{name: GREETING, value: hi}]
                  resources: {requests: {cpu: 500m}, limits: {cpu: 1500m, memory: 1Gi}}
                  securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {drop: [ALL], add: [NET_BIND_SERVICE]}}
        """;

    private static (V1PodSpec Pod, V1Container Container) Parse(string yaml)
    {
        var pod = Yaml.Parse(yaml).Jobs.Single().Spec.Template.Spec;
        return (pod, pod.Containers[0]);
    }

    [Fact]
    public void Build_MapsTheRestrictedSettingsToDocker()
    {
        var (pod, container) = Parse(Restricted);
        var p = ContainerFactory.Build("n", container, pod, "1654", [new("GREETING", "hi")], [], "sandbox", new Dictionary<string, string>());

        Assert.Equal("1654:1654", p.User);
        Assert.Equal(["bash", "-c"], p.Entrypoint);
        Assert.Equal(["echo hi $HOME $(NOPE)"], p.Cmd);
        Assert.Equal("/work", p.WorkingDir);
        Assert.Equal(["GREETING=hi"], p.Env);
        Assert.Equal(TimeSpan.FromSeconds(5), p.StopTimeout);
        var host = p.HostConfig;
        Assert.Equal("container:sandbox", host.NetworkMode);
        Assert.True(host.ReadonlyRootfs);
        Assert.Equal(["ALL"], host.CapDrop);
        Assert.Equal(["NET_BIND_SERVICE"], host.CapAdd);
        Assert.Equal(["no-new-privileges"], host.SecurityOpt);
        Assert.Equal(["2000", "3000"], host.GroupAdd);
        Assert.Equal(1_500_000_000, host.NanoCPUs);
        Assert.Equal(512, host.CPUShares);
        Assert.Equal(1024L * 1024 * 1024, host.Memory);
        Assert.Equal(host.Memory, host.MemorySwap);
        Assert.False(host.Privileged);
    }

    [Fact]
    public void Command_WithoutArgs_IgnoresTheImagesCmd_AndArgsAloneKeepTheEntrypoint()
    {
        var vars = new Dictionary<string, string>();
        var (entrypoint, cmd) = ContainerFactory.Command(new V1Container { Command = ["sleep", "5"] }, vars);
        Assert.Equal(["sleep", "5"], entrypoint);
        Assert.Empty(cmd!); // empty, not null: Docker then does not fall back to the image's CMD
        (entrypoint, cmd) = ContainerFactory.Command(new V1Container { Args = ["run", "--x"] }, vars);
        Assert.Null(entrypoint);
        Assert.Equal(["run", "--x"], cmd);
        (entrypoint, cmd) = ContainerFactory.Command(new V1Container(), vars);
        Assert.Null(entrypoint);
        Assert.Null(cmd);
    }

    [Theory]
    [InlineData(null, null, "1654", null)]
    [InlineData(1000L, null, "1654", "1000")]
    [InlineData(1000L, 2000L, "1654", "1000:2000")]
    [InlineData(null, 2000L, "app:app", "app:2000")]
    [InlineData(null, 2000L, "", "0:2000")]
    public void DockerUser_IsUidColonGid(long? user, long? group, string imageUser, string? expected) =>
        Assert.Equal(expected, EffectiveSecurity.Merge(new V1PodSecurityContext { RunAsUser = user, RunAsGroup = group }, null).DockerUser(imageUser));

    [Fact]
    public void Merge_PrefersTheContainersSettings()
    {
        var merged = EffectiveSecurity.Merge(
            new V1PodSecurityContext { RunAsUser = 1, RunAsGroup = 2, RunAsNonRoot = false, SeccompProfile = new V1SeccompProfile { Type = "RuntimeDefault" } },
            new V1SecurityContext { RunAsUser = 3, RunAsNonRoot = true, SeccompProfile = new V1SeccompProfile { Type = "Unconfined" } });
        Assert.Equal((3L, 2L, true), (merged.RunAsUser, merged.RunAsGroup, merged.RunAsNonRoot));
        Assert.Equal(["seccomp=unconfined"], merged.SecurityOptions());
    }

    [Theory]
    [InlineData(0L, "1654", "runAsUser breaks non-root policy")]
    [InlineData(null, "0", "image will run as root")]
    [InlineData(null, "", "image will run as root")]
    [InlineData(null, "app", "non-numeric user (app), cannot verify user is non-root")]
    [InlineData(null, "1654:1654", null)]
    [InlineData(1654L, "0", null)]
    public void RunAsNonRoot_IsCheckedAgainstTheEffectiveUser(long? user, string imageUser, string? violation)
    {
        var security = EffectiveSecurity.Merge(new V1PodSecurityContext { RunAsNonRoot = true, RunAsUser = user }, null);
        if (violation is null)
        {
            Assert.Null(security.NonRootViolation(imageUser));
        }
        else
        {
            Assert.Contains(violation, security.NonRootViolation(imageUser), StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Build_RefusesARootImageUnderRunAsNonRoot()
    {
        var (pod, container) = Parse(Restricted.Replace("runAsUser: 1654, ", "", StringComparison.Ordinal));
        var error = Assert.Throws<PodConfigException>(() => ContainerFactory.Build("n", container, pod, "0", [], [], "s", new Dictionary<string, string>()));
        Assert.Contains("container runner: container has runAsNonRoot and image will run as root", error.Message, StringComparison.Ordinal);
    }
}
