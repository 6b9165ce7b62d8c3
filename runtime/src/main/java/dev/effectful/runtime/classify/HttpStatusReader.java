package dev.effectful.runtime.classify;

import java.net.http.HttpResponse;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the HTTP status and {@code Retry-After} from the exceptions common HTTP clients throw,
 * by reflection, so that none of those libraries is needed to build or run Effectful. Never throws:
 * a carrier it cannot read is treated as carrying no status.
 */
final class HttpStatusReader {

    /**
     * What a carrier said.
     *
     * @param status     the HTTP status code
     * @param retryAfter the raw {@code Retry-After} header; null when absent
     */
    record Reading(int status, String retryAfter) {
    }

    static final String RETRY_AFTER = "Retry-After";

    /** The known carriers, recognised by class name anywhere in the exception's superclasses. */
    private enum Carrier {
        /** Spring 5 and 6: getStatusCode() is an HttpStatus or HttpStatusCode in 6, absent from some 5 types. */
        SPRING("org.springframework.web.client.RestClientResponseException",
                "org.springframework.web.reactive.function.client.WebClientResponseException") {
            @Override
            Integer status(Object e) {
                Object code = Reflect.call(e, "getStatusCode");
                Integer value = code instanceof Number n ? Integer.valueOf(n.intValue()) : asInt(Reflect.call(code, "value"));
                return value != null ? value : asInt(Reflect.call(e, "getRawStatusCode"));
            }

            @Override
            String header(Object e, String name) {
                // RestClientResponseException says getResponseHeaders(), WebClientResponseException getHeaders()
                Object headers = Reflect.call(e, "getResponseHeaders");
                if (headers == null) {
                    headers = Reflect.call(e, "getHeaders");
                }
                return asString(Reflect.call(headers, "getFirst", name));
            }
        },
        /** Feign: status() is -1 when no response came (RetryableException), which reads as none. */
        FEIGN("feign.FeignException") {
            @Override
            Integer status(Object e) {
                return asInt(Reflect.call(e, "status"));
            }

            @Override
            String header(Object e, String name) {
                return fromMap(Reflect.call(e, "responseHeaders"), name);
            }
        },
        /** JAX-RS clients (Jersey, RESTEasy, CXF) under either namespace. */
        JAX_RS("jakarta.ws.rs.WebApplicationException", "javax.ws.rs.WebApplicationException") {
            @Override
            Integer status(Object e) {
                return asInt(Reflect.call(Reflect.call(e, "getResponse"), "getStatus"));
            }

            @Override
            String header(Object e, String name) {
                return asString(Reflect.call(Reflect.call(e, "getResponse"), "getHeaderString", name));
            }
        },
        NONE() {
            @Override
            Integer status(Object e) {
                return null;
            }

            @Override
            String header(Object e, String name) {
                return null;
            }
        };

        private final String[] classNames;

        Carrier(String... classNames) {
            this.classNames = classNames;
        }

        abstract Integer status(Object e);

        abstract String header(Object e, String name);

        static Carrier of(Class<?> type) {
            for (Class<?> c = type; c != null && c != Throwable.class; c = c.getSuperclass()) {
                for (Carrier carrier : values()) {
                    for (String name : carrier.classNames) {
                        if (name.equals(c.getName())) {
                            return carrier;
                        }
                    }
                }
            }
            return NONE;
        }
    }

    private static final ClassValue<Carrier> CARRIERS = new ClassValue<>() {
        @Override
        protected Carrier computeValue(Class<?> type) {
            return Carrier.of(type);
        }
    };

    private HttpStatusReader() {
    }

    /** The status a thrown exception carries, if it is a known carrier with a real status. */
    static Optional<Reading> read(Throwable thrown) {
        if (thrown == null) {
            return Optional.empty();
        }
        try {
            Carrier carrier = CARRIERS.get(thrown.getClass());
            if (carrier == Carrier.NONE) {
                return Optional.empty();
            }
            Integer status = carrier.status(thrown);
            if (!plausible(status)) {
                return Optional.empty();
            }
            return Optional.of(new Reading(status, carrier.header(thrown, RETRY_AFTER)));
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    /** The status of a returned JDK {@link HttpResponse}; empty for anything else. */
    static Optional<Reading> readReturned(Object returned) {
        if (!(returned instanceof HttpResponse<?> response)) {
            return Optional.empty();
        }
        try {
            int status = response.statusCode();
            if (!plausible(status)) {
                return Optional.empty();
            }
            String retryAfter = response.headers() == null ? null
                    : response.headers().firstValue(RETRY_AFTER).orElse(null);
            return Optional.of(new Reading(status, retryAfter));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean plausible(Integer status) {
        return status != null && status >= 100 && status <= 999;
    }

    private static Integer asInt(Object o) {
        return o instanceof Number n ? Integer.valueOf(n.intValue()) : null;
    }

    private static String asString(Object o) {
        return o == null ? null : o.toString();
    }

    /** Feign's headers are a Map of Collections; its keys are case-insensitive only sometimes. */
    private static String fromMap(Object headers, String name) {
        if (!(headers instanceof Map<?, ?> map)) {
            return null;
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (e.getKey() instanceof String key && key.equalsIgnoreCase(name)) {
                Object v = e.getValue();
                if (v instanceof Collection<?> values) {
                    return values.isEmpty() ? null : asString(values.iterator().next());
                }
                return asString(v);
            }
        }
        return null;
    }
}
