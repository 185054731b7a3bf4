package dev.slipstream.cluster;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds a launcher's {@link ClusteredServiceFactory}: by the class name its configuration file
 * gives, or as the one registered with {@link ServiceLoader}; and makes it, so that a factory that
 * cannot be made fails before anything starts.
 *
 * <pre>{@code
 * ClusteredServiceFactory factory = ServiceFactories.find(file, "service.factory", loader);
 * }</pre>
 */
final class ServiceFactories {
    private static final String EXPECTED = "the name of a public class that implements "
            + ClusteredServiceFactory.class.getName() + " with a public no-argument constructor";

    private ServiceFactories() {
    }

    /**
     * @param config the configuration file
     * @param key the key that may name the factory's class
     * @param loader where classes and registered factories are looked up
     * @return the factory, made
     * @throws IllegalArgumentException if the class is not found, is not a factory, cannot be made,
     *         or, with no class named, no factory or several are registered
     */
    static ClusteredServiceFactory find(final ConfigFile config, final String key, final ClassLoader loader) {
        if (config.has(key)) {
            return byName(config, key, config.required(key, EXPECTED), loader);
        }
        final List<ServiceLoader.Provider<ClusteredServiceFactory>> found;
        try {
            found = ServiceLoader.load(ClusteredServiceFactory.class, loader).stream().toList();
        } catch (final ServiceConfigurationError e) {
            throw config.fail(key + " is not given, and the registered " + ClusteredServiceFactory.class.getSimpleName()
                    + "s cannot be listed (" + e.getMessage() + "); expected " + key + "=<" + EXPECTED
                    + ">, or one registered factory");
        }
        if (found.size() != 1) {
            final List<String> names = found.stream().map(p -> p.type().getName()).toList();
            throw config.fail(key + " is not given, and " + (found.isEmpty() ? "no "
                    + ClusteredServiceFactory.class.getName() + " is registered (in META-INF/services or a module's "
                    + "provides)" : found.size() + " are registered: " + String.join(", ", names))
                    + "; expected " + key + "=<" + EXPECTED + ">, or exactly one registered factory");
        }
        final ServiceLoader.Provider<ClusteredServiceFactory> provider = found.get(0);
        try {
            return provider.get();
        } catch (final ServiceConfigurationError e) {
            throw config.fail(key + " is not given, and the registered factory " + provider.type().getName()
                    + " cannot be made (" + rootMessage(e) + "); expected " + EXPECTED);
        }
    }

    private static ClusteredServiceFactory byName(final ConfigFile config, final String key, final String name,
            final ClassLoader loader) {
        final Class<?> type;
        try {
            type = Class.forName(name, true, loader);
        } catch (final ClassNotFoundException e) {
            throw config.invalid(key, name, EXPECTED + "; no class of that name is on the class path");
        } catch (final LinkageError e) {
            // ExceptionInInitializerError, NoClassDefFoundError: the class is there but broken
            throw config.invalid(key, name, EXPECTED + "; the class cannot be loaded (" + rootMessage(e) + ")");
        }
        if (!ClusteredServiceFactory.class.isAssignableFrom(type)) {
            throw config.invalid(key, name, EXPECTED + "; " + type.getName() + " does not implement "
                    + ClusteredServiceFactory.class.getSimpleName());
        }
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            throw config.invalid(key, name, EXPECTED + "; " + type.getName() + " is abstract");
        }
        final Constructor<?> constructor;
        try {
            constructor = type.getConstructor();
        } catch (final NoSuchMethodException e) {
            throw config.invalid(key, name, EXPECTED + "; " + type.getName() + " has no public no-argument constructor");
        }
        try {
            return (ClusteredServiceFactory) constructor.newInstance();
        } catch (final InvocationTargetException e) {
            throw config.invalid(key, name, EXPECTED + "; its constructor threw " + e.getCause());
        } catch (final ReflectiveOperationException | RuntimeException e) {
            // IllegalAccessException: a class that is not public, or in a package its module does not export
            throw config.invalid(key, name, EXPECTED + "; it cannot be made (" + e + ")");
        }
    }

    private static String rootMessage(final Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + ": " + root;
    }
}
