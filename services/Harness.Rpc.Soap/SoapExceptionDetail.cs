using System.Runtime.Serialization;

namespace Harness.Rpc.Soap;

/// <summary>
/// The exception description a fault carries when the service sets
/// <see cref="SoapEndpointOptions.IncludeExceptionDetailInFaults"/>. Its data contract has the name and namespace of
/// WCF's <c>System.ServiceModel.ExceptionDetail</c>, so a WCF client reads it as that type.
/// </summary>
[DataContract(Name = "ExceptionDetail", Namespace = SoapNames.ExceptionDetailNamespace)]
public sealed class SoapExceptionDetail
{
    /// <summary>Creates an empty detail; the serializer fills it.</summary>
    public SoapExceptionDetail()
    {
    }

    internal SoapExceptionDetail(Exception exception)
    {
        HelpLink = exception.HelpLink;
        Message = exception.Message;
        StackTrace = exception.StackTrace;
        Type = exception.GetType().ToString();
        InnerException = exception.InnerException is null ? null : new SoapExceptionDetail(exception.InnerException);
    }

    /// <summary>The exception's help link, usually absent.</summary>
    [DataMember]
    public string? HelpLink { get; set; }

    /// <summary>The inner exception, if there was one.</summary>
    [DataMember]
    public SoapExceptionDetail? InnerException { get; set; }

    /// <summary>The exception's message.</summary>
    [DataMember]
    public string? Message { get; set; }

    /// <summary>The server-side stack trace.</summary>
    [DataMember]
    public string? StackTrace { get; set; }

    /// <summary>The exception's full type name, for example <c>System.InvalidOperationException</c>.</summary>
    [DataMember]
    public string? Type { get; set; }
}
